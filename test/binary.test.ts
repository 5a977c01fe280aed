/**
 * The compiled binary, as a reviewer and a CI job use it: built once, run
 * from an empty directory with an empty environment, and offline.
 * `CAPLAB_BIN=FILE` runs the same tests on that file instead of building one
 * (the release runs them on its linux-x64 and linux-x64-baseline files).
 */
import { beforeAll, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, buildFlags, gitState, RELEASE_TARGETS, stampFor } from '../scripts/build.ts';
import { scratchDir } from './scratch.ts';
import { killAllWith, setsidSleep, waitNoneWith } from '../src/platform/testing/find.ts';
import { sigkillTrial } from '../src/platform/testing/sigkill-trial.ts';
import { accepts } from '../src/cli/testing/serve-http.ts';

const given = process.env['CAPLAB_BIN'];
/** Whether this file builds its own binary (no CAPLAB_BIN). */
const own = given === undefined || given === '';
const stamp = stampFor(gitState());
const bin = own ? join(scratchDir('caplab-bin-'), 'caplab') : resolve(given);

beforeAll(async () => {
  if (own) {
    const built = await build(bin, stamp);
    if (built.code !== 0) throw new Error(`build failed: ${built.output}`);
  }
}, 120_000);

async function run(argv: string[], cwd: string, env: Record<string, string> = {}) {
  const child = Bun.spawn(argv, { cwd, env, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, code };
}

test('env -i caplab demo --json from an empty dir: accepted over MCP, the child is the binary itself with serve, holding fds 0-2 only', async () => {
  const cwd = scratchDir('caplab-empty-');
  const { stdout, code, stderr } = await run(['env', '-i', bin, 'demo', '--json'], cwd);
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  const doc = JSON.parse(stdout);
  expect([doc.accepted, doc.transport, doc.scripted, doc.requests, doc.tool_calls, doc.mcp_calls]).toEqual([true, 'mcp', true, 3, 3, 2]);
  expect(doc.server.protocolVersion).toBe('2025-06-18');
  expect(doc.server.launch).toEqual([bin, 'serve']);
  for (const call of doc.calls.filter((c: any) => c.via === 'mcp')) expect([typeof call.jsonrpc_id, call.tool_call_id, call.action_id]).toEqual(['number', expect.stringMatching(/^toolu_/), expect.stringMatching(/^act-/)]);
  const events = readFileSync(join(doc.run_dir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const close = events.find((e) => e.type === 'run_end').transport_close;
  expect(close.survivors).toEqual([]);
  expect(close.server_stderr).toContain('inherited fds 0,1,2; other descriptors: none');
  expect(doc.run_dir.startsWith(cwd)).toBe(true);
});

test('env -i caplab demo --transport http from an empty dir: the binary spawns itself as serve --http, accepted over Streamable HTTP, verify passes, nothing left listening', async () => {
  const cwd = scratchDir('caplab-bin-http-');
  const { stdout, code, stderr } = await run(['env', '-i', bin, 'demo', '--transport', 'http', '--json'], cwd);
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  const doc = JSON.parse(stdout);
  const url: string = doc.server.url;
  expect([doc.accepted, doc.scripted, doc.requests, doc.tool_calls, doc.mcp_calls]).toEqual([true, true, 3, 3, 2]);
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  expect([doc.server.protocolVersion, doc.server.header_names]).toEqual(['2025-06-18', ['Authorization']]);
  const events = readFileSync(join(doc.run_dir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const end = events.find((e) => e.type === 'run_end');
  expect(end.format).toBe('caplab.ledger/7');
  // The server was the binary's own serve --http, and it stopped on stdin's end after the DELETE.
  const close = end.transport_close;
  expect(close.server_stderr).toContain('caplab serve: caplab-fixture 1.0.0 ready (MCP 2025-06-18, Streamable HTTP;');
  expect([close.exitCode, close.steps, close.survivors, close.http.session]).toEqual([0, ['stdin_end'], [], { deleted: true, status: 204 }]);
  expect(await accepts(Number(new URL(url).port))).toBe(false);
  const verified = await run(['env', '-i', bin, 'verify', doc.run_dir], cwd);
  expect([verified.code, verified.stdout]).toEqual([0, expect.stringContaining('caplab.ledger/7')]);
});

test.each(['mcp', 'local'])('env -i caplab run --replay the example (%s): accepted, every response replayed, usage the file’s totals, and verify re-computes it', async (transport) => {
  const cwd = scratchDir('caplab-bin-replay-');
  copyFileSync(join(import.meta.dir, '../fixtures/examples/excerpt.replay.jsonl'), join(cwd, 'excerpt.replay.jsonl'));
  const { stdout, code, stderr } = await run(['env', '-i', bin, 'run', '--replay', 'excerpt.replay.jsonl', '--transport', transport, '--json'], cwd);
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  const doc = JSON.parse(stdout);
  expect([doc.accepted, doc.transport, doc.scripted, doc.origin, doc.requests, doc.tool_calls]).toEqual([true, transport, false, 'replayed', 3, 3]);
  expect(doc.request_log.map((r: any) => r.response.origin)).toEqual(['replayed', 'replayed', 'replayed']);
  const lines = readFileSync(join(cwd, 'excerpt.replay.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l).usage);
  const sum = (key: string) => lines.reduce((total, usage) => total + usage[key], 0);
  expect(doc.usage.total).toEqual({ input_tokens: sum('input_tokens'), output_tokens: sum('output_tokens'), cache_creation_input_tokens: sum('cache_creation_input_tokens'), cache_read_input_tokens: sum('cache_read_input_tokens') });
  const verified = await run(['env', '-i', bin, 'verify', doc.run_dir], cwd);
  expect(verified.code).toBe(0);
  expect(verified.stdout).toContain('verdict accepted (re-computed)');
});

test('unshare -n caplab check: every scenario as expected with no network; the JUnit file parses and has one testcase per scenario', async () => {
  const cwd = scratchDir('caplab-offline-');
  const probe = await run(['unshare', '-n', 'true'], cwd, { PATH: '/usr/bin:/bin' });
  const prefix = probe.code === 0 ? ['unshare', '-n'] : [];
  if (probe.code !== 0) console.log(`unshare -n is not permitted here (${probe.stderr.trim() || `exit ${probe.code}`}); running check without a network namespace`);
  const { stdout, code } = await run([...prefix, bin, 'check', '--json', '--junit', 'report.xml'], cwd, { PATH: '/usr/bin:/bin' });
  const doc = JSON.parse(stdout);
  expect(doc.results.filter((r: any) => !r.passed)).toEqual([]);
  expect(code).toBe(0);
  expect(doc.results.map((r: any) => r.id)).toEqual(expect.arrayContaining(['demo-mcp', 'demo-local', 'same-batch-mcp', 'same-batch-local']));
  // A real XML parser (python3's ElementTree), not a regex, reads the report.
  const parsed = await run(['python3', '-c', 'import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); print(len(r.findall(".//testcase")), len(r.findall(".//failure")))', join(cwd, 'report.xml')], cwd, { PATH: '/usr/bin:/bin' });
  expect(parsed.stdout.trim()).toBe(`${doc.results.length} 0`);
});

test('the binary ignores .env and bunfig.toml in the directory it runs from', async () => {
  const cwd = scratchDir('caplab-autoload-');
  writeFileSync(join(cwd, 'evil.ts'), `require('node:fs').writeFileSync(${JSON.stringify(join(cwd, 'PRELOADED'))}, 'x');`);
  writeFileSync(join(cwd, 'bunfig.toml'), 'preload = ["./evil.ts"]\n');
  writeFileSync(join(cwd, '.env'), 'SOURCE_DATE_EPOCH=not-a-number\n');
  const { code, stdout } = await run([bin, 'demo', '--transport', 'local', '--json'], cwd);
  expect(code).toBe(0); // a loaded .env would make SOURCE_DATE_EPOCH a usage error
  expect(JSON.parse(stdout).accepted).toBe(true);
  expect(existsSync(join(cwd, 'PRELOADED'))).toBe(false);
});

test('alone in a folder (no sourcemap, nothing beside it) it still runs the demo; --version and --help work', async () => {
  const alone = join(scratchDir('caplab-alone-'), 'caplab');
  copyFileSync(bin, alone);
  chmodSync(alone, 0o755);
  expect(readdirSync(join(alone, '..'))).toEqual(['caplab']);
  const cwd = scratchDir('caplab-help-');
  const version = await run([alone, '--version'], cwd);
  const help = await run([alone, 'demo', '--help'], cwd);
  const demo = await run([alone, 'demo', '--json'], cwd);
  expect(version.stdout).toMatch(/^caplab \d+\.\d+\.\d+\n$/);
  expect(help.stdout).toContain('Exit codes:');
  expect([demo.code, JSON.parse(demo.stdout).accepted]).toEqual([0, true]);
});

test("probe's judging worker runs in the binary: a call judged valid over the binary's own serve; a backtracking pattern stopped at --timeout-ms", async () => {
  const cwd = scratchDir('caplab-bin-probe-');
  const valid = await run([bin, 'probe', '--json', '--call', 'read_source', '--args', '{"source_id":"alpha"}', '--', bin, 'serve'], cwd, { TMPDIR: cwd });
  expect(valid.code).toBe(0);
  expect(JSON.parse(valid.stdout).calls).toEqual([expect.objectContaining({ outcome: 'result', outputSchema: 'valid', judgingMs: expect.any(Number), findings: [] })]);
  const hostile = join(import.meta.dir, '../src/mcp/probe/testing/hostile.ts');
  const late = await run([bin, 'probe', '--json', '--timeout-ms', '500', '--call', 'judge_me', '--', process.execPath, hostile, 'backtrack'], cwd, { TMPDIR: cwd });
  expect([late.code, JSON.parse(late.stdout).calls[0].findings.map((f: any) => f.kind)]).toEqual([0, ['judging_timeout']]); // a warning (host rule): exit 0 under --fail-on error
  expect(readdirSync(cwd)).toEqual([]);
});

test('the binary is a child subreaper (bun:ffi prctl works compiled): a hook\'s setsid sleep is killed at the end of the run', async () => {
  const cwd = scratchDir('caplab-bin-setsid-');
  const marker = `709.${process.pid}${Math.floor(Math.random() * 1e6)}`;
  try {
    // The hook returns once the sleep has exec'd in its own session: the sweep then names it sleep, never setsid.
    const command = setsidSleep(marker);
    writeFileSync(join(cwd, 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'create_card', hooks: [{ type: 'command', command, timeout: 60 }] }] } }));
    const { code, stdout } = await run([bin, 'demo', '--json', '--settings', 'settings.json'], cwd, { PATH: '/usr/bin:/bin' });
    expect(code).toBe(0);
    const events = readFileSync(join(JSON.parse(stdout).run_dir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const end = events.at(-1);
    expect(end.orphans).toEqual({ subreaper: true, killed: [{ name: 'sleep', count: 1 }], survivors: [] });
    expect(end.transport_close.orphans).toEqual({ subreaper: true, killed: [], survivors: [] });
    expect(await waitNoneWith(marker)).toEqual([]);
  } finally {
    killAllWith(marker);
  }
});

test('SIGKILLed, the binary leaves nothing: its guard (the binary itself, re-invoked) kills a hung hook and the server, and removes probe\'s temp folder', async () => {
  const dir = scratchDir('caplab-bin-sigkill-');
  const [hookMarker, probeMarker] = [1, 2].map((n) => `71${n}.${process.pid}${Math.floor(Math.random() * 1e6)}`) as [string, string];
  const settings = { hooks: { PreToolUse: [{ matcher: 'create_card', hooks: [{ type: 'command', command: `sleep ${hookMarker} & sleep ${hookMarker}`, timeout: 600 }] }] } };
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings));
  const common = { cwd: dir, tmp: dir, markerCount: 2 };
  const hook = await sigkillTrial({ ...common, argv: [bin, 'demo', '--settings', 'settings.json', '--out', 'run'], marker: hookMarker, probeFolder: false });
  const probe = await sigkillTrial({ ...common, argv: [bin, 'probe', '--', 'sh', '-c', `sleep ${probeMarker} & sleep ${probeMarker}`], marker: probeMarker, probeFolder: true });
  const clean = { extraFds: [], left: { processes: [], folders: [] } };
  expect({ hook, probe }).toEqual({ hook: clean, probe: clean });
});

test('--version --json reports the commit and the build flags it was built with; plain --version prints one line', async () => {
  const cwd = scratchDir('caplab-bin-version-');
  const { stdout, code } = await run(['env', '-i', bin, '--version', '--json'], cwd);
  expect(code).toBe(0);
  const doc = JSON.parse(stdout);
  expect(Object.keys(doc)).toEqual(['version', 'commit', 'dirty', 'bun', 'target', 'platform', 'arch', 'build']);
  const target = RELEASE_TARGETS.find((t) => doc.target === `bun-${t}`);
  // A release passes --target (a cross-build); npm run build and this test's build do not (Bun builds for itself).
  const flags = doc.build.some((f: string) => f.startsWith('--target=')) ? buildFlags(target) : buildFlags();
  expect({ commit: doc.commit, build: doc.build, bun: doc.bun, platform: doc.platform, arch: doc.arch }).toEqual({ commit: gitState().commit, build: flags, bun: Bun.version, platform: process.platform, arch: process.arch });
  expect(typeof doc.dirty).toBe('boolean');
  expect((await run([bin, '--version'], cwd)).stdout).toMatch(/^caplab \d+\.\d+\.\d+\n$/);
});

/** sha256 of a file, hex. */
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

test('reproducible: buildArgs twice into two folders under one file name gives the same bytes (host target, nothing fetched)', async () => {
  const parent = scratchDir('caplab-bin-repro-');
  const twice: string[] = [];
  // The test's own build is one of the two when it made one; a given CAPLAB_BIN was built elsewhere, so two are made here.
  if (own) twice.push(bin);
  for (const folder of ['a', 'b'].slice(0, 2 - twice.length)) {
    mkdirSync(join(parent, folder));
    const out = join(parent, folder, 'caplab');
    const built = await build(out, stamp);
    if (built.code !== 0) throw new Error(`build failed: ${built.output}`);
    twice.push(out);
  }
  expect(twice[0]).not.toBe(twice[1]);
  expect(sha256(twice[0]!)).toBe(sha256(twice[1]!));
}, 120_000);

test('verify --json from source and from the binary print the same document on the demo (both transports) and every check scenario run dir', async () => {
  const { goldenRuns } = await import('./golden/run-dirs.ts');
  const cwd = scratchDir('caplab-bin-verify-');
  await goldenRuns(cwd);
  const dirs = [join(cwd, 'caplab-runs/golden-demo-local'), join(cwd, 'caplab-runs/golden-demo-mcp'), ...readdirSync(join(cwd, 'check')).map((d) => join(cwd, 'check', d))];
  const source = join(import.meta.dir, '../src/main.ts');
  const differ: string[] = [];
  const compare = async (dir: string) => {
    const [fromSource, fromBinary] = await Promise.all([run([process.execPath, source, 'verify', dir, '--json'], cwd), run([bin, 'verify', dir, '--json'], cwd)]);
    if (fromSource.stdout !== fromBinary.stdout || fromSource.code !== fromBinary.code || fromSource.stdout === '') differ.push(dir);
  };
  // Four pairs at a time: the comparison is per dir, the order does not matter.
  const queue = [...dirs];
  await Promise.all(Array.from({ length: 4 }, async () => {
    for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) await compare(dir);
  }));
  expect(differ).toEqual([]);
  expect(dirs.length).toBeGreaterThan(40);
}, 120_000);
