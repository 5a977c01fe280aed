import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_SERVE_ENTRY } from './tasks.ts';
import { EXIT } from './exit.ts';
import { parseRunFlags, runCommand } from './run-command.ts';
import { testIo } from './test-io.ts';
import { excerptTaskOverMcp } from '../excerpt/index.ts';
import { excerptCli } from './testing/excerpt-cli.ts';

const scratch = mkdtempSync(join(tmpdir(), 'caplab-redact-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SECRET = 'mcp-secret-3f9a1c77e0';

test('a server that prints a value from its launch env on stderr: the run record and the output hold [redacted:NAME], never the value', async () => {
  // The fixture server, started through a shell that first prints the value it was given.
  const serve = [process.execPath, ...DEV_SERVE_ENTRY].map((arg) => `'${arg}'`).join(' ');
  const launch = { command: ['/bin/sh', '-c', `echo "server token: $FIXTURE_TOKEN" >&2; exec ${serve}`], cwd: '/', env: { FIXTURE_TOKEN: SECRET } };
  const parsed = parseRunFlags(['--json', '--run-id', 'redacted'], 'demo', excerptCli());
  if (!parsed.ok) throw new Error(parsed.message);
  const flags = parsed.value;
  const io = testIo(scratch);
  expect(await runCommand(flags, io, excerptCli(excerptTaskOverMcp({ envSource: {}, launch })))).toBe(EXIT.ok);
  const runDir = join(scratch, 'caplab-runs', 'redacted');
  const recorded = readdirSync(runDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
  expect(recorded).toContain('server token: [redacted:FIXTURE_TOKEN]');
  expect(recorded).not.toContain(SECRET);
  expect(io.out() + io.err()).not.toContain(SECRET);
});
