import { expect, test } from 'bun:test';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { EXIT } from './exit.ts';
import { parseProbeFlags } from './probe-command.ts';
import { testIo } from './test-io.ts';

const VALID = join(import.meta.dir, '../../fixtures/skills/valid-minimal');

test.each([
  ['demo', '--transport', 'local', 'mcp'],
  ['demo', '--out', 'a', 'b'],
  ['demo', '--run-id', 'a', 'b'],
  ['run', '--scenario', 'demo', 'same-batch'],
  ['check', '--junit', 'a.xml', 'b.xml'],
  ['check', '--out', 'a', 'b'],
  ['check', '--run-id', 'a', 'b'],
  ['tools', '--model', 'plain', 'strict'],
  ['verify', '--head', 'a'.repeat(64), 'b'.repeat(64)],
])('caplab %s with %s given twice is a usage error (exit 2), nothing run or written', async (command, flag, first, second) => {
  const cwd = scratchDir('caplab-flags-');
  const io = testIo(cwd);
  const rest = command === 'verify' ? [cwd] : command === 'demo' && flag !== '--transport' ? ['--transport', 'local'] : [];
  expect(await cli([command, ...rest, flag, first, `${flag}=${second}`], io)).toBe(EXIT.usage);
  expect(io.err()).toContain(`${flag} given twice`);
  expect(io.out()).toBe('');
  expect(readdirSync(cwd)).toEqual([]);
});

test.each([
  ['--timeout-ms', '5', '6'],
  ['--startup-timeout-ms', '5', '6'],
  ['--cwd', '.', '/'],
])('caplab probe with %s given twice is a usage error before any server starts', async (flag, first, second) => {
  const io = testIo(scratchDir('caplab-flags-'));
  expect(await cli(['probe', flag, first, `${flag}=${second}`, '--', '/nonexistent/server'], io)).toBe(EXIT.usage);
  expect(io.err()).toContain(`${flag} given twice`);
  expect(io.err()).not.toContain('starting');
});

test('probe --config and --server given twice are usage errors too', async () => {
  for (const argv of [['--config', 'a.json', '--config', 'b.json', '--server', 's'], ['--server', 'a', '--server', 'b']]) {
    const io = testIo(scratchDir('caplab-flags-'));
    expect(await cli(['probe', ...argv], io)).toBe(EXIT.usage);
    expect(io.err()).toContain('given twice');
  }
});

test('repeatable flags still repeat: --allow-tool, and probe --env, --env-allow, --call', async () => {
  const io = testIo(scratchDir('caplab-flags-'));
  expect(await cli(['demo', '--transport', 'local', '--allow-tool', 'read_source', '--allow-tool', 'create_card'], io)).toBe(EXIT.ok);
  const flags = parseProbeFlags(['--env', 'A=1', '--env', 'B=2', '--env-allow', 'C', '--env-allow', 'D', '--call', 'x', '--call', 'y', '--', 'server']);
  if (typeof flags === 'string') throw new Error(flags);
  expect([flags.env, flags.envAllow, flags.calls.map((c) => c.name)]).toEqual([{ A: '1', B: '2' }, ['C', 'D'], ['x', 'y']]);
});

test('--version takes no argument: `caplab --version extra` is a usage error', async () => {
  for (const flag of ['--version', '-v']) {
    const io = testIo('/');
    expect(await cli([flag, 'extra'], io)).toBe(EXIT.usage);
    expect(io.out()).toBe('');
    expect(io.err()).toContain('takes no argument');
  }
  const io = testIo('/');
  expect(await cli(['--version'], io)).toBe(EXIT.ok);
});

test("--skills '' is a usage error for skills and for demo (it would mean the working directory)", async () => {
  for (const argv of [['skills', '--skills', ''], ['demo', '--transport', 'local', '--skills='], ['skills', '--skills', VALID, '--skills', '']]) {
    const cwd = scratchDir('caplab-flags-');
    const io = testIo(cwd);
    expect(await cli(argv, io)).toBe(EXIT.usage);
    expect(io.err()).toContain('--skills needs a folder');
    expect(readdirSync(cwd)).toEqual([]);
  }
});

test('skills --skills takes several folders: the packages of each are listed', async () => {
  const one = scratchDir('caplab-flags-');
  const two = scratchDir('caplab-flags-');
  cpSync(VALID, join(one, 'valid-minimal'), { recursive: true });
  cpSync(VALID, join(two, 'other-minimal'), { recursive: true });
  const skill = join(two, 'other-minimal/SKILL.md');
  writeFileSync(skill, readFileSync(skill, 'utf8').replace('name: valid-minimal', 'name: other-minimal'));
  const io = testIo('/');
  expect(await cli(['skills', '--json', '--skills', one, '--skills', two], io)).toBe(EXIT.ok);
  expect(JSON.parse(io.out()).packages.map((p: { name: string }) => p.name)).toEqual(['excerpt-card', 'valid-minimal', 'other-minimal']);
});
