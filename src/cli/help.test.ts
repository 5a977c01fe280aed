import { expect, test } from 'bun:test';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { HELP } from './help.ts';
import { loadTask } from './tasks.ts';
import { testIo } from './test-io.ts';

const commands = Object.keys(HELP).filter((name) => name !== 'main');

test('the help table covers every command the main help lists', () => {
  expect(commands.sort()).toEqual(['agents', 'check', 'demo', 'probe', 'report', 'run', 'scenario', 'serve', 'skills', 'tools', 'verify']);
});

test.each(commands.flatMap((name) => [[name, '--help'], [name, '-h']]))('caplab %s %s prints that command\'s help and exits 0', async (name, flag) => {
  const io = testIo(scratchDir('caplab-help-'));
  expect(await cli([name, flag], io)).toBe(0);
  expect(io.out()).toBe(`${HELP[name]}\n`);
  expect(io.err()).toBe('');
});

test('--help wins over missing or bad arguments (run without --scenario, verify without a dir, an unknown flag)', async () => {
  for (const argv of [['run', '--help'], ['run', '--transport', 'carrier-pigeon', '--help'], ['verify', '--help'], ['demo', '--bogus', '--help']]) {
    const io = testIo(scratchDir('caplab-help-'));
    expect({ argv, code: await cli(argv, io), err: io.err() }).toEqual({ argv, code: 0, err: '' });
    expect(io.out()).toBe(`${HELP[argv[0]!]}\n`);
  }
});

test('after `--`, --help belongs to the server probe starts, not to caplab', async () => {
  const io = testIo(scratchDir('caplab-help-'));
  const code = await cli(['probe', '--', '/nonexistent/server', '--help'], io);
  expect(io.out()).not.toBe(`${HELP['probe']}\n`);
  expect(code).not.toBe(0);
});

test('without --help, run still needs --scenario (exit 2)', async () => {
  const io = testIo(scratchDir('caplab-help-'));
  expect(await cli(['run'], io)).toBe(2);
  expect(io.err()).toContain('run needs --scenario');
});

test("check's help names exactly the scenarios the task runs over MCP too", async () => {
  const { overMcp } = (await loadTask()).scenarios;
  const named = /\(([^)]*) also over MCP\)/.exec(HELP['check']!.replace(/\s+/g, ' '))?.[1];
  expect(named?.split(/, | and /)).toEqual([...overMcp]);
});
