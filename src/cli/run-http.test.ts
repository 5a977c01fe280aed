/**
 * `caplab run --transport http`: the same path as `demo --transport http`
 * (src/cli/demo-http.test.ts), reached from `run` with recorded responses
 * (`--replay`). Accepted, the run dir verifies, the ledger names the
 * server's URL and never the token the server was given.
 */
import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { excerptTaskOverMcp, FIXTURE_TOKEN_ENV, fixtureLaunch } from '../excerpt/index.ts';
import { recordingSpawn } from './testing/recording-spawn.ts';
import { isRunning } from '../mcp/wire/testing/processes.ts';
import { cli } from './cli.ts';
import { parseRunFlags, runCommand } from './run-command.ts';
import { DEV_SERVE_ENTRY, loadTask } from './tasks.ts';
import { testIo } from './test-io.ts';
import { accepts } from './testing/serve-http.ts';

const ENV = { SOURCE_DATE_EPOCH: '1700000000' };
const EXAMPLE = join(import.meta.dir, '../../fixtures/examples/excerpt.replay.jsonl');

/** Every file under a folder, with its bytes. */
function files(root: string, dir = ''): [string, Buffer][] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(root, path) : [[path, readFileSync(join(root, path))] as [string, Buffer]];
  });
}

test('run --transport http --replay: accepted over Streamable HTTP, verify passes, the ledger has the URL and no token; the server is gone', async () => {
  const dir = scratchDir('caplab-run-http-');
  // The CLI's own task, with a spawn that keeps what it launched: the token is read from the server's env.
  const { spawn, launched, pids } = recordingSpawn();
  const overHttp = excerptTaskOverMcp({ envSource: ENV, launch: fixtureLaunch({ devEntry: DEV_SERVE_ENTRY, envSource: ENV, http: true }), http: { tokenEnv: FIXTURE_TOKEN_ENV }, spawn });
  const cliTask = { ...(await loadTask({ envSource: ENV })), overHttp };
  const flags = parseRunFlags(['--transport', 'http', '--replay', EXAMPLE, '--json', '--run-id', 'run-http', '--out', 'run'], 'run', cliTask);
  if (!flags.ok) throw new Error(flags.message);
  const io = testIo(dir, ENV);
  expect(await runCommand(flags.value, io, cliTask)).toBe(0);

  const doc = JSON.parse(io.out());
  // Read before toMatchObject: Bun's puts its asymmetric matchers into the object it matched.
  const url: string = doc.server.url;
  expect([doc.accepted, doc.origin, doc.requests, doc.tool_calls, doc.mcp_calls]).toEqual([true, 'replayed', 3, 3, 2]);
  expect(doc.server).toMatchObject({ protocolVersion: '2025-06-18', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/), header_names: ['Authorization'] });

  const ledger = readFileSync(join(dir, 'run', 'ledger.jsonl'), 'utf8');
  expect(ledger).toContain('"format":"caplab.ledger/7"');
  expect(ledger).toContain(`"url":${JSON.stringify(url)}`);
  expect(launched).toHaveLength(1);
  const token = launched[0]!.env[FIXTURE_TOKEN_ENV]!;
  expect(token).toMatch(/^[0-9a-f]{64}$/);
  for (const [path, bytes] of files(join(dir, 'run'))) expect({ path, leaked: bytes.includes(Buffer.from(token)) }).toEqual({ path, leaked: false });
  expect(io.out() + io.err()).not.toContain(token);

  const verified = testIo(dir);
  expect(await cli(['verify', join(dir, 'run')], verified)).toBe(0);
  expect(verified.out()).toContain('caplab.ledger/7');
  expect(isRunning(pids[0]!)).toBe(false);
  expect(await accepts(Number(new URL(url).port))).toBe(false);
});

test('run --transport http through the CLI as a user types it: accepted, and the run dir verifies', async () => {
  const dir = scratchDir('caplab-run-http-cli-');
  const io = testIo(dir, { PATH: process.env['PATH'] ?? '/usr/bin:/bin' });
  expect(await cli(['run', '--transport', 'http', '--replay', EXAMPLE, '--run-id', 'typed', '--out', 'typed'], io)).toBe(0);
  expect(io.out()).toContain('caplab over MCP (Streamable HTTP, 2025-06-18)');
  const ledger = readFileSync(join(dir, 'typed', 'ledger.jsonl'), 'utf8');
  expect(ledger).toMatch(/"url":"http:\/\/127\.0\.0\.1:\d+\/mcp"/);
  expect(ledger).not.toMatch(/Bearer [0-9a-f]/i);
  expect(await cli(['verify', join(dir, 'typed')], testIo(dir))).toBe(0);
});
