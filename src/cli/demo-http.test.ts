/**
 * `caplab demo --transport http`: the excerpt task's fixture server spawned
 * as `serve --http` with a fresh token, the strict client over Streamable
 * HTTP. Its card and request payloads are a stdio run's, byte for byte; its
 * ledger names format 7 and the URL; the token is nowhere in the run dir nor
 * in what the CLI wrote; no process is left and the port refuses.
 */
import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { excerptTaskOverMcp, FIXTURE_HTTP_ARGS, FIXTURE_TOKEN_ENV, fixtureLaunch } from '../excerpt/index.ts';
import { recordingSpawn } from './testing/recording-spawn.ts';
import { isRunning } from '../mcp/wire/testing/processes.ts';
import { livingMembers } from '../platform/index.ts';
import { cli } from './cli.ts';
import { parseRunFlags, runCommand } from './run-command.ts';
import { DEV_SERVE_ENTRY, loadTask } from './tasks.ts';
import { testIo } from './test-io.ts';
import { accepts } from './testing/serve-http.ts';

const ENV = { SOURCE_DATE_EPOCH: '1700000000' };

/** Every file under a folder, by path relative to it. */
function files(root: string, dir = ''): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) for (const [p, b] of files(root, path)) found.set(p, b);
    else found.set(path, readFileSync(join(root, path)));
  }
  return found;
}

const compared = (all: Map<string, Buffer>): [string, string][] =>
  [...all].filter(([path]) => path.startsWith('card/') || path.startsWith('requests/')).map(([path, bytes]) => [path, bytes.toString('hex')]);

test('demo --transport http is accepted and verifies; card and requests/* equal a stdio run of the same id byte for byte', async () => {
  const dir = scratchDir();
  const http = testIo(dir, ENV);
  expect(await cli(['demo', '--transport', 'http', '--run-id', 'same', '--out', 'http'], http)).toBe(0);
  expect(http.out()).toContain('caplab over MCP (Streamable HTTP, 2025-06-18)');
  expect(await cli(['demo', '--transport', 'mcp', '--run-id', 'same', '--out', 'stdio'], testIo(dir, ENV))).toBe(0);
  const [overHttp, overStdio] = [files(join(dir, 'http')), files(join(dir, 'stdio'))];
  expect(compared(overHttp).length).toBeGreaterThanOrEqual(4);
  expect(compared(overHttp)).toEqual(compared(overStdio));
  const ledger = overHttp.get('ledger.jsonl')!.toString();
  expect(ledger).toContain('"format":"caplab.ledger/7"');
  expect(ledger).toMatch(/"url":"http:\/\/127\.0\.0\.1:\d+\/mcp"/);
  expect(overStdio.get('ledger.jsonl')!.toString()).not.toContain('caplab.ledger/7');
  const verified = testIo(dir);
  expect(await cli(['verify', join(dir, 'http')], verified)).toBe(0);
  expect(verified.out()).toContain('caplab.ledger/7');
});

test('the token is set only in the server env, sent, never recorded or printed; the group is reaped and the port refuses', async () => {
  const dir = scratchDir();
  const { spawn, launched, pids } = recordingSpawn();
  const overHttp = excerptTaskOverMcp({
    envSource: ENV,
    launch: fixtureLaunch({ devEntry: DEV_SERVE_ENTRY, envSource: ENV, http: true }),
    http: { tokenEnv: FIXTURE_TOKEN_ENV },
    spawn,
  });
  const cliTask = { ...(await loadTask({ envSource: ENV })), overHttp };
  const io = testIo(dir, ENV);
  const flags = parseRunFlags(['--transport', 'http', '--run-id', 'tok', '--out', 'run'], 'demo', cliTask);
  if (!flags.ok) throw new Error(flags.message);
  expect(await runCommand(flags.value, io, cliTask)).toBe(0);

  expect(launched).toHaveLength(1);
  const { command, env } = launched[0]!;
  expect(command.slice(-FIXTURE_HTTP_ARGS.length)).toEqual([...FIXTURE_HTTP_ARGS]);
  // The stdio fixture's empty environment, plus the token alone.
  expect(Object.keys(env)).toEqual([FIXTURE_TOKEN_ENV]);
  const token = env[FIXTURE_TOKEN_ENV]!;
  expect(token).toMatch(/^[0-9a-f]{64}$/);
  expect(command.join(' ')).not.toContain(token);

  const needle = Buffer.from(token);
  for (const [path, bytes] of files(join(dir, 'run'))) expect({ path, leaked: bytes.includes(needle) }).toEqual({ path, leaked: false });
  expect(io.out() + io.err()).not.toContain(token);

  const ledger = readFileSync(join(dir, 'run', 'ledger.jsonl'), 'utf8');
  expect(ledger).toContain('"headerNames":["Authorization"]');
  expect(ledger).toContain('"session":{"deleted":true,"status":204}');
  const port = Number(/"url":"http:\/\/127\.0\.0\.1:(\d+)\/mcp"/.exec(ledger)![1]);
  expect(isRunning(pids[0]!)).toBe(false);
  expect(livingMembers(pids[0]!)).toEqual([]);
  expect(await accepts(port)).toBe(false);
  // It exited on stdin's end: nothing harsher was needed.
  expect(ledger).toContain('"exitCode":0');
  expect(ledger).toContain('"steps":["stdin_end"]');
});
