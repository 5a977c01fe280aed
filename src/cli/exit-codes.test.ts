import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { fail, refusal } from '../contract/index.ts';
import type { Task } from '../harness/index.ts';
import { replacingTool } from '../harness/testing/replace-tool.ts';
import { EXIT_CODES_HELP } from './help.ts';
import { EXIT } from './exit.ts';
import { parseRunFlags, runCommand } from './run-command.ts';
import { testIo } from './test-io.ts';
import { scratchDir } from '../../test/scratch.ts';
import { excerptTaskOverMcp } from '../excerpt/index.ts';
import { excerptCli } from './testing/excerpt-cli.ts';

const flags = (args: string[]) => {
  const parsed = parseRunFlags(['--json', ...args], 'demo', excerptCli());
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};

/** The task with local tools whose read_source ends as the given failure. */
const failingReads = (failure: ReturnType<typeof fail>): Task => replacingTool('read_source', (t) => ({ ...t, handler: async () => failure }));

test('a server that cannot be spawned: exit 3 (transport), one JSON document naming spawn', async () => {
  const io = testIo(scratchDir('caplab-exit-'));
  const overMcp = excerptTaskOverMcp({ envSource: {}, launch: { command: ['/nonexistent/caplab-server'], cwd: '/', env: {} } });
  expect(await runCommand(flags([]), io, excerptCli(overMcp))).toBe(EXIT.protocol);
  expect(JSON.parse(io.out()).error.class).toBe('spawn');
});

test('a protocol failure in a call: exit 3; an unknown outcome (timeout/closed): exit 4, reported as unknown, not "not executed"', async () => {
  const protocol = testIo(scratchDir('caplab-exit-'));
  expect(await runCommand(flags(['--transport', 'mcp']), protocol, excerptCli(failingReads(refusal('protocol', 'framing', 'spec MUST', 'stray byte'))))).toBe(EXIT.protocol);
  const unknown = testIo(scratchDir('caplab-exit-'));
  expect(await runCommand(flags(['--transport', 'mcp']), unknown, excerptCli(failingReads(fail('timeout', 'deadline', 'no answer'))))).toBe(EXIT.unknown);
  const doc = JSON.parse(unknown.out());
  expect(doc.ending).toContain('outcome unknown');
  expect(doc.calls[0].handler_entered).toBe(true);
});

test('the README exit-code table and --help list every code the CLI returns', async () => {
  const readme = await Bun.file(join(import.meta.dir, '../../README.md')).text();
  const table = readme.slice(readme.indexOf('### Exit codes'));
  const rows = [...table.matchAll(/^\| ([0-9, ]+) \|/gm)].flatMap((m) => m[1]!.split(',').map((code) => Number(code.trim())));
  for (const code of new Set(Object.values(EXIT))) {
    expect(rows).toContain(code);
    expect(EXIT_CODES_HELP).toMatch(new RegExp(`^  ${code}  `, 'm'));
  }
});
