import { expect, test } from 'bun:test';
import { linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { misbehaveLaunch } from '../excerpt/testing/misbehave-launch.ts';
import { cli } from './cli.ts';
import { parseProbeFlags } from './probe-command.ts';
import { testIo } from './test-io.ts';
import { scratchDir } from '../../test/scratch.ts';

const ROOT = join(import.meta.dir, '../..');
const PATH = process.env['PATH'] ?? '/usr/bin:/bin';
const mode = (name: string): string[] => misbehaveLaunch(name as never).command.slice();
const FAST = ['--timeout-ms', '5000', '--startup-timeout-ms', '5000'];
const READ = ['--call', 'read_source', '--args', '{"source_id":"alpha"}'];

test('probe -- bun src/main.ts serve: the fixture server, read_source, no findings, exit 0; relative paths made absolute and printed', async () => {
  const io = testIo(ROOT, { PATH });
  const code = await cli(['probe', '--json', '--', process.execPath, 'src/main.ts', 'serve'], io);
  const report = JSON.parse(io.out());
  expect([code, report.exit, report.serverInfo.name, report.protocolVersion, report.complete]).toEqual([0, 0, 'caplab-fixture', '2025-06-18', true]);
  expect(report.tools.map((t: any) => t.name)).toEqual(['read_source']);
  expect(report.findings).toEqual([]);
  expect(report.close.survivors).toEqual([]);
  expect(report.command[1]).toBe(join(ROOT, 'src/main.ts'));
  expect(io.err()).toContain(`caplab probe: starting ${process.execPath} ${join(ROOT, 'src/main.ts')} serve`);
});

test('probe --call read_source -- bun src/main.ts serve: the text block carries the serialized structuredContent, so the call is clean (exit 0)', async () => {
  const io = testIo(ROOT, { PATH });
  const code = await cli(['probe', '--json', ...READ, '--', process.execPath, 'src/main.ts', 'serve'], io);
  const report = JSON.parse(io.out());
  expect(report.calls).toEqual([expect.objectContaining({ tool: 'read_source', outcome: 'result', outputSchema: 'valid', structuredContent: true, contentTypes: ['text'], findings: [] })]);
  expect([code, report.exit, report.findings]).toEqual([0, 0, []]);
  expect(report.close.survivors).toEqual([]);
});

test('probe --call of a tool caplab serve did not list: unlisted_tool [caplab host rule], still sent (the server refuses it), exit 1', async () => {
  const io = testIo(ROOT, { PATH });
  const code = await cli(['probe', '--call', 'nope', '--', process.execPath, 'src/main.ts', 'serve'], io);
  expect(code).toBe(1);
  expect(io.out()).toContain('protocol/unlisted_tool [caplab host rule]');
  expect(io.out()).toContain('protocol/jsonrpc_error [caplab host rule]');
});

test('probe usage errors exit 2; a command that cannot start exits 3', async () => {
  const io = testIo('/', { PATH: '/usr/bin:/bin' });
  expect(await cli(['probe'], io)).toBe(2);
  expect(await cli(['probe', '--bogus', '--', 'x'], io)).toBe(2);
  expect(await cli(['probe', '--args', '{}', '--', 'x'], io)).toBe(2);
  expect(await cli(['probe', '--call', 'a', '--args', '[1]', '--', 'x'], io)).toBe(2);
  expect(await cli(['probe', '--timeout-ms', '0', '--', 'x'], io)).toBe(2);
  expect(await cli(['probe', '--server', 'a', '--', 'x'], io)).toBe(2);
  expect(await cli(['probe', '--', '/nonexistent/server'], io)).toBe(3);
});

test('flags: --call/--args pair in order; --env and --env-allow collected', () => {
  const flags = parseProbeFlags(['--call', 'a', '--args', '{"x":1}', '--call', 'b', '--env', 'K=v=w', '--env-allow', 'N', '--timeout-ms=50', '--', 'cmd']);
  expect(flags).toMatchObject({ calls: [{ name: 'a', arguments: { x: 1 } }, { name: 'b', arguments: {} }], env: { K: 'v=w' }, envAllow: ['N'], requestMs: 50, command: ['cmd'] });
});

test('--mcp-config and --config are one flag: either spelling, not both; each needs --server', () => {
  expect(parseProbeFlags(['--mcp-config', 'a.json', '--server', 's'])).toMatchObject({ config: 'a.json', server: 's' });
  expect(parseProbeFlags(['--config=a.json', '--server', 's'])).toMatchObject({ config: 'a.json', server: 's' });
  expect(parseProbeFlags(['--config', 'a.json', '--mcp-config', 'b.json', '--server', 's'])).toBe('--mcp-config given twice; it takes one value');
  expect(parseProbeFlags(['--mcp-config', 'a.json', '--config', 'b.json', '--server', 's'])).toBe('--config (--mcp-config) given twice; it takes one value');
  expect(parseProbeFlags(['--config'])).toBe('--config needs a value');
  expect(parseProbeFlags(['--mcp-config', 'a.json'])).toBe('--mcp-config (--config) needs --server NAME (or --all)');
});

test('a config entry\'s relative command and arguments resolve against the config file\'s folder, not the caller\'s cwd (with --cwd too); -- CMD against the caller\'s', async () => {
  const dir = scratchDir('caplab-probe-folder-');
  const [bun, script] = mode('ok');
  mkdirSync(join(dir, 'project/bin'), { recursive: true });
  mkdirSync(join(dir, 'project/servers'));
  mkdirSync(join(dir, 'caller'));
  symlinkSync(bun!, join(dir, 'project/bin/bun'));
  symlinkSync(script!, join(dir, 'project/servers/srv.ts'));
  writeFileSync(join(dir, 'project/servers.json'), JSON.stringify({ mcpServers: { s: { command: './bin/bun', args: ['servers/srv.ts', 'ok'] } } }));
  const launched = [join(dir, 'project/bin/bun'), join(dir, 'project/servers/srv.ts'), 'ok'];
  for (const extra of [[], ['--cwd', '.']]) {
    const io = testIo(join(dir, 'caller'), { PATH });
    const code = await cli(['probe', '--json', ...FAST, ...extra, '--mcp-config', '../project/servers.json', '--server', 's'], io);
    expect([extra, code, JSON.parse(io.out()).command]).toEqual([extra, 0, launched]);
    expect(io.err()).toContain(`caplab probe: starting ${launched.join(' ')}`);
  }
  // The same command given after --: relative to the caller's cwd, where it names nothing, so it cannot start.
  const io = testIo(join(dir, 'caller'), { PATH });
  expect(await cli(['probe', '--json', ...FAST, '--', './bin/bun', 'servers/srv.ts', 'ok'], io)).toBe(3);
  expect(JSON.parse(io.out()).command).toEqual([join(dir, 'caller/bin/bun'), 'servers/srv.ts', 'ok']);
  // From the project folder, -- CMD finds them.
  const there = testIo(join(dir, 'project'), { PATH });
  expect(await cli(['probe', '--json', ...FAST, '--', './bin/bun', 'servers/srv.ts', 'ok'], there)).toBe(0);
});

test('exit codes: protocol failures after initialize are 3; findings 1; unknown outcome 4; text mode shows exit code and stderr', async () => {
  const cases: [string, string[], number][] = [
    ['stray', READ, 3],
    ['duplicate', READ, 3],
    ['bad_utf8', READ, 3],
    ['bad_tools', [], 1],
    ['serialized', READ, 0],
    ['slow', [...READ, '--timeout-ms', '100'], 4],
    ['crash', READ, 4],
    ['die_start', [], 3],
  ];
  for (const [name, extra, expected] of cases) {
    const io = testIo('/', { PATH });
    // A flag given twice is a usage error: a case with its own --timeout-ms drops FAST's.
    const timeouts = extra.includes('--timeout-ms') ? FAST.slice(2) : FAST;
    const code = await cli(['probe', ...timeouts, ...extra, '--', ...mode(name)], io);
    expect([name, code]).toEqual([name, expected]);
    expect(io.out()).toContain(`  exit      ${expected} (`);
  }
  const died = testIo('/', { PATH });
  await cli(['probe', ...FAST, '--', ...mode('die_start')], died);
  expect(died.out()).toContain('server    exit code 7');
  expect(died.out()).toContain('| fatal: cannot find ./config.toml');
  expect(died.out()).toContain('--cwd .');
});

test('env: values never printed (text, --json, stderr tail); a user-named GITHUB_TOKEN reaches the server', async () => {
  const secret = 'ghp_supersecretvalue123';
  for (const json of [[], ['--json']]) {
    const io = testIo('/', { PATH, GITHUB_TOKEN: secret });
    const code = await cli(['probe', ...json, ...FAST, '--env-allow', 'GITHUB_TOKEN', '--env', 'OTHER_SECRET=hunter2hunter2', '--', ...mode('echo_env')], io);
    expect(code).toBe(0);
    const all = io.out() + io.err();
    expect(all).not.toContain(secret);
    expect(all).not.toContain('hunter2hunter2');
    expect(all).toContain('GITHUB_TOKEN');
    if (json.length > 0) {
      const report = JSON.parse(io.out());
      // The server printed what it got: the value arrived, and comes back only as its marker.
      expect(report.stderr).toContain('GITHUB_TOKEN=[redacted:GITHUB_TOKEN]');
      expect(report.envNames).toEqual(['GITHUB_TOKEN', 'OTHER_SECRET', 'PATH']);
      expect(report.serverInfo.version).toBe('[redacted:GITHUB_TOKEN]');
    }
  }
  // Not named by the user: the allowlist keeps it out.
  const io = testIo('/', { PATH, GITHUB_TOKEN: secret });
  await cli(['probe', '--json', ...FAST, '--', ...mode('echo_env')], io);
  expect(JSON.parse(io.out()).stderr).toContain('GITHUB_TOKEN=(unset)');
});

test('.mcp.json in the cwd: refused without --trust, probed with it; ${VAR} printed unexpanded, values never', async () => {
  const dir = scratchDir('caplab-probe-config-');
  try {
    const [bun, script, ...rest] = mode('echo_env');
    const config = {
      mcpServers: {
        mis: { command: bun, args: [script, ...rest, '--token=${MY_TOKEN}'], env: { GITHUB_TOKEN: '${MY_TOKEN}', LEVEL: '${LEVEL:-debug}' } },
        remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
        events: { type: 'sse', url: 'https://example.invalid/sse' },
      },
    };
    writeFileSync(join(dir, '.mcp.json'), JSON.stringify(config));
    const env = { PATH, MY_TOKEN: 'tok_abcdef123456' };
    const refused = testIo(dir, env);
    expect(await cli(['probe', '--server', 'mis'], refused)).toBe(2);
    expect(refused.err()).toContain('--trust');
    const named = testIo(dir, env);
    expect(await cli(['probe', '--config', './.mcp.json', '--server', 'mis'], named)).toBe(2);
    const sse = testIo(dir, env);
    expect(await cli(['probe', '--trust', '--server', 'events'], sse)).toBe(2);
    expect(sse.err()).toContain('invalid_arguments/unsupported_transport');
    // An http entry is connected to: nothing listens on port 9 (closed/unreachable), exit 3.
    const http = testIo(dir, env);
    expect(await cli(['probe', '--trust', '--server', 'remote'], http)).toBe(3);
    expect(http.out()).toContain('ENDED     closed/unreachable');
    const trusted = testIo(dir, env);
    expect(await cli(['probe', '--json', '--trust', ...FAST, '--server', 'mis'], trusted)).toBe(0);
    const report = JSON.parse(trusted.out());
    expect(report.stderr).toContain('GITHUB_TOKEN=[redacted:GITHUB_TOKEN]');
    expect(report.envNames).toEqual(['GITHUB_TOKEN', 'LEVEL', 'PATH']);
    expect(trusted.out() + trusted.err()).not.toContain('tok_abcdef123456');
    expect(trusted.err()).toContain(`${script} echo_env --token=\${MY_TOKEN}`);
    expect(report.command.at(-1)).toBe('--token=${MY_TOKEN}');
    // The alias, and a file elsewhere used as named.
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(join(dir, 'elsewhere/servers.json'), JSON.stringify({ mcpServers: { s: { command: '${NOPE}' } } }));
    const unset = testIo(dir, env);
    expect(await cli(['probe', '--config', 'elsewhere/servers.json', '--server', 's'], unset)).toBe(2);
    expect(unset.err()).toContain('${NOPE} is not set');
    const alias = testIo(dir, env);
    expect(await cli(['probe', '--trust-project', ...FAST, '--server', 'mis'], alias)).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('inputs are refused before any start (exit 2): --cwd naming a file is bad_path, an env name that is not a shell name, --env NAME without =VALUE', async () => {
  const dir = scratchDir('caplab-probe-inputs-');
  writeFileSync(join(dir, 'a-file'), 'not a folder');
  const file = testIo(dir, { PATH });
  expect(await cli(['probe', '--cwd', 'a-file', '--', ...mode('ok')], file)).toBe(2);
  expect(file.err()).toContain(`invalid_arguments/bad_path: --cwd ${join(dir, 'a-file')} is not a folder`);
  const missing = testIo(dir, { PATH });
  expect(await cli(['probe', '--cwd', 'nowhere', '--', ...mode('ok')], missing)).toBe(2);
  expect(missing.err()).toContain('invalid_arguments/bad_path: --cwd');
  const [bun, script] = mode('ok');
  for (const name of ['A=B', '', '1X', 'A B', 'A-B']) {
    writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { s: { command: bun, args: [script, 'ok'], env: { [name]: 'v' } } } }));
    const io = testIo(dir, { PATH });
    expect([name, await cli(['probe', '--trust', '--server', 's'], io)]).toEqual([name, 2]);
    expect(io.err()).toContain(`invalid_arguments/malformed_config: ${join(dir, '.mcp.json')}: server "s": env name ${JSON.stringify(name)} is not [A-Za-z_][A-Za-z0-9_]*`);
  }
  expect(parseProbeFlags(['--env', 'TOKEN', '--', 'x'])).toBe('--env needs NAME=VALUE ("TOKEN" lacks a value)');
  expect(parseProbeFlags(['--env', '=v', '--', 'x'])).toBe('--env needs NAME=VALUE with a NAME of [A-Za-z_][A-Za-z0-9_]* (got "")');
  expect(parseProbeFlags(['--env', 'A-B=v', '--', 'x'])).toBe('--env needs NAME=VALUE with a NAME of [A-Za-z_][A-Za-z0-9_]* (got "A-B")');
  expect(parseProbeFlags(['--env', '_a1=', '--', 'x'])).toMatchObject({ env: { _a1: '' } });
});

test('./.mcp.json reached another way is still the project file, used only with --trust: a symlink to it, a hard link, and the file it links to', async () => {
  const dir = scratchDir('caplab-probe-trust-');
  const [bun, script] = mode('ok');
  const config = JSON.stringify({ mcpServers: { s: { command: bun, args: [script, 'ok'] } } });
  writeFileSync(join(dir, '.mcp.json'), config);
  symlinkSync(join(dir, '.mcp.json'), join(dir, 'via-symlink.json'));
  linkSync(join(dir, '.mcp.json'), join(dir, 'via-hardlink.json'));
  // The project file itself a symlink: the file it names is the project's too.
  const linked = join(dir, 'linked');
  mkdirSync(join(linked, 'real'), { recursive: true });
  writeFileSync(join(linked, 'real/servers.json'), config);
  symlinkSync(join(linked, 'real/servers.json'), join(linked, '.mcp.json'));
  const cases: [string, string][] = [[dir, 'via-symlink.json'], [dir, 'via-hardlink.json'], [dir, `../${dir.split('/').at(-1)}/.mcp.json`], [linked, 'real/servers.json']];
  for (const [cwd, named] of cases) {
    const io = testIo(cwd, { PATH });
    expect([named, await cli(['probe', '--config', named, '--server', 's'], io)]).toEqual([named, 2]);
    expect(io.err()).toContain('permission_denied/untrusted_project');
  }
  // Trusted, the symlink is read as named.
  const trusted = testIo(dir, { PATH });
  expect(await cli(['probe', '--trust', ...FAST, '--config', 'via-symlink.json', '--server', 's'], trusted)).toBe(0);
});

test('README, caplab --help and caplab probe --help state one precedence of exit codes', async () => {
  const { EXIT_CODES_HELP, HELP } = await import('./help.ts');
  const readme = await Bun.file(join(ROOT, 'README.md')).text();
  const rule = 'the most severe wins: 2 > 70 > 130/143 > 4 > 3 > 1 > 0.';
  expect(readme).toContain(rule);
  expect(EXIT_CODES_HELP).toContain(rule);
  expect(HELP['probe']).toContain(rule);
  for (const flag of ['--call', '--args', '--timeout-ms', '--startup-timeout-ms', '--cwd', '--env', '--env-allow', '--mcp-config', '--config', '--server', '--trust']) {
    expect(HELP['probe']).toContain(flag);
    expect(readme).toContain(flag);
  }
});

test('--task-status asks one server about one task: not with --call, --all, --pins or fuzzing; alone it parses', () => {
  const refusal = '--task-status asks one server about one task only: not with --call, --all, --pins or fuzzing';
  expect(parseProbeFlags(['--task-status', 't1', '--call', 'x', '--', 'cmd'])).toBe(refusal);
  expect(parseProbeFlags(['--task-status', 't1', '--mcp-config', 'a.json', '--all'])).toBe(refusal);
  expect(parseProbeFlags(['--task-status', 't1', '--pins', 'p.json', '--name', 'n', '--', 'cmd'])).toBe(refusal);
  expect(parseProbeFlags(['--task-status', 't1', '--fuzz', '3', '--fuzz-tool', 'x', '--', 'cmd'])).toBe(refusal);
  expect(parseProbeFlags(['--task-status', 't1', '--', 'cmd'])).toMatchObject({ taskStatus: 't1', command: ['cmd'] });
});
