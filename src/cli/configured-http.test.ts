/**
 * `caplab run --mcp-config` with an http entry: an expectations scenario
 * calling `read_source` on a real `caplab serve --http` (another process) is
 * accepted, recorded with the URL and header names (format 7; 12 as serve
 * answers 2025-11-25 and lists count_words, a task tool), the
 * session id by sha256 only, and verifies; no token value is anywhere in the
 * run dir. Its header values are redacted as placed env values are: a stdio
 * neighbour that prints one on stderr is recorded with `[redacted:<header>]`.
 * An entry nothing answers at is a server that did not start and the run goes
 * on; `--require-server` on it stops the run (exit 3). A bad http entry is a
 * usage error.
 */
import { expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { until } from '../../test/until.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { CONFIGURED_SERVER, events, writeScenario } from './testing/configured-kit.ts';
import { filesUnder } from './testing/configured-hostile-run.ts';
import { socketCount, startServe } from './testing/serve-http.ts';

const HEADER_VALUE = 'k3y-literal-value-91c2';
const TOKEN = 'tok_7d3e0b55aa';

/**
 * A config of an http entry and a stdio server that prints the http entry's
 * X-Api-Key value on stderr (read from a file, so that neither its argv nor
 * its env holds the value), then serves: `[redacted:X-Api-Key]` in its
 * recorded stderr comes from the header alone.
 */
function writeConfig(dir: string, remote: Record<string, unknown>): string {
  const valueFile = join(dir, 'value.txt');
  writeFileSync(valueFile, HEADER_VALUE);
  const leaky = { command: '/bin/sh', args: ['-c', 'printf "leaked %s\\n" "$(cat "$2")" >&2; exec "$0" "$1" echo', process.execPath, CONFIGURED_SERVER, valueFile] };
  const path = join(dir, 'servers.mcp.json');
  writeFileSync(path, JSON.stringify({ mcpServers: { remote, local: leaky } }));
  return path;
}

const REMOTE = { type: 'http', url: 'https://mcp.example.test/mcp', headers: { Authorization: 'Bearer ${MCP_TOKEN}', 'X-Api-Key': HEADER_VALUE } };
/** Nothing listens on port 9 (discard): a connection there is refused. */
const DOWN = { type: 'http', url: 'http://127.0.0.1:9/mcp' };

/** An expectations scenario: read_source on the http server, the call ok with the source's id, then the end. */
function writeExpectations(dir: string): string {
  const path = join(dir, 'remote.scenario.json');
  const usage = { input_tokens: 0, output_tokens: 0 };
  writeFileSync(path, JSON.stringify({
    task: 'expectations',
    name: 'remote',
    description: 'Read one source from caplab serve --http.',
    servers: ['remote'],
    permissions: { allow: ['mcp__remote__read_source'] },
    responses: [{ tool_calls: [{ id: 'read', name: 'mcp__remote__read_source', arguments: { source_id: 'alpha' } }], usage }, { text: 'Read.', usage }],
    expect: { calls: { read: { ok: true, values: { '/source_id': 'alpha' }, output_valid: true } }, end: { calls: 1, stop: 'final_answer' } },
  }));
  return path;
}

async function run(dir: string, remote: Record<string, unknown>, more: readonly string[] = [], scenario = writeScenario(dir, [])) {
  const config = writeConfig(dir, remote);
  const out = join(dir, 'run');
  const io = testIo(dir, { PATH: process.env['PATH'], HOME: process.env['HOME'], MCP_TOKEN: TOKEN });
  const code = await cli(['run', '--scenario', scenario, '--mcp-config', config, '--out', out, ...more], io);
  return { code, out, stdout: io.out(), stderr: io.err() };
}

test('an expectations scenario over an http entry to caplab serve --http is accepted: format 12 (the HTTP shapes of 7, and the background binding of count_words), the URL and header names recorded, the session by sha256, verified; no token value in the run dir', async () => {
  const served = await startServe(['--token-env', 'CAPLAB_TEST_TOKEN'], { CAPLAB_TEST_TOKEN: TOKEN });
  const dir = scratchDir('caplab-configured-http-');
  const sockets = socketCount();
  const ran = await run(dir, { type: 'http', url: served.url, headers: { Authorization: 'Bearer ${MCP_TOKEN}', 'X-Api-Key': HEADER_VALUE } }, [], writeExpectations(dir));
  expect([ran.code, ran.stderr]).toEqual([0, '']);
  const all = events(ran.out);
  const start = all[0]!;
  const end = all.find((e) => e.type === 'run_end')!;
  expect(end.format).toBe('caplab.ledger/12');
  expect(start.servers).toHaveLength(1);
  const remote = start.servers[0];
  expect(remote).toMatchObject({ key: 'remote', status: 'started', identity: { name: 'caplab-fixture', endpoint: { kind: 'http', url: served.url, headerNames: ['Authorization', 'X-Api-Key'] } } });
  expect(remote.session_sha256).toMatch(/^[0-9a-f]{64}$/);
  expect(all.find((e) => e.type === 'acceptance')!.checks.map((c: any) => `${c.id} ${c.verdict}`)).toEqual(['call:read:ok pass', 'call:read:/source_id pass', 'call:read:output_valid pass', 'end:calls pass', 'end:stop pass']);
  const verify = testIo(dir, { PATH: process.env['PATH'] });
  expect([await cli(['verify', ran.out], verify), verify.err()]).toEqual([0, '']);
  // The bytes of every file, not just the ledger: the token and the header value appear nowhere.
  const holding = filesUnder(ran.out).filter((file) => file.text.includes(HEADER_VALUE) || file.text.includes(TOKEN)).map((file) => file.path);
  expect(holding).toEqual([]);
  expect(readFileSync(join(ran.out, 'ledger.jsonl'), 'utf8')).toContain(served.url);
  expect(ran.stdout.includes(TOKEN) || ran.stdout.includes(HEADER_VALUE)).toBe(false);
  await until(() => socketCount() <= sockets);
  expect(socketCount()).toBeLessThanOrEqual(sockets);
}, 30_000);

test('an http entry nothing answers at is recorded as not started (closed/unreachable), the run goes on; its header values are redacted and never recorded', async () => {
  const dir = scratchDir('caplab-configured-http-');
  const ran = await run(dir, { ...DOWN, headers: { 'X-Api-Key': HEADER_VALUE } });
  expect(ran.code).toBe(1); // the scenario makes no card: not accepted
  const [start] = events(ran.out);
  const end = events(ran.out).find((e) => e.type === 'run_end')!;
  expect(start!.servers.map((s: any) => [s.key, s.status, s.failure?.class, s.failure?.kind])).toEqual([
    ['remote', 'failed', 'closed', 'unreachable'],
    ['local', 'started', undefined, undefined],
  ]);
  // No tool carries an HTTP endpoint: the record keeps format 5.
  expect(end.format).toBe('caplab.ledger/5');
  expect(ran.stderr).toContain('server remote did not start (closed/unreachable)');
  const local = end.servers.find((s: any) => s.key === 'local');
  expect(local.stderr).toContain('leaked [redacted:X-Api-Key]');
  const holding = filesUnder(ran.out).filter((file) => file.text.includes(HEADER_VALUE) || file.text.includes(TOKEN)).map((file) => file.path);
  expect({ holding, stdout: ran.stdout.includes(TOKEN) || ran.stdout.includes(HEADER_VALUE), stderr: ran.stderr.includes(TOKEN) || ran.stderr.includes(HEADER_VALUE) }).toEqual({ holding: [], stdout: false, stderr: false });
}, 30_000);

test('--require-server on an http entry: exit 3, no run dir; a bad http entry is a usage error (exit 2)', async () => {
  const required = await run(scratchDir('caplab-configured-http-'), DOWN, ['--require-server', 'remote']);
  expect(required.code).toBe(3);
  expect(required.stderr).toContain('remote: closed/unreachable');
  const rows: [Record<string, unknown>, string][] = [
    [{ ...REMOTE, headers: { Authorization: `Bearer ${TOKEN}` } }, 'invalid_arguments/literal_credential'],
    [{ ...REMOTE, url: 'http://mcp.example.test/mcp' }, 'invalid_arguments/plaintext_headers'],
    [{ ...REMOTE, url: 'ws://mcp.example.test/mcp' }, 'invalid_arguments/bad_url'],
    [{ ...REMOTE, headers: { Authorization: 'Bearer ${UNSET_TOKEN}' } }, 'invalid_arguments/unset_variable'],
  ];
  for (const [remote, says] of rows) {
    const refused = await run(scratchDir('caplab-configured-http-'), remote);
    expect({ remote, code: refused.code, says: refused.stderr.includes(says), leaks: refused.stderr.includes(TOKEN) }).toEqual({ remote, code: 2, says: true, leaks: false });
  }
}, 30_000);
