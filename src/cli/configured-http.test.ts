/**
 * `caplab run --mcp-config` with an http entry, before the HTTP client
 * transport is wired (configured.ts `openEntry`'s seam): the entry is read
 * and checked, recorded as a server that did not start
 * (`spawn/unsupported_transport`), and the run goes on with the others;
 * `--require-server` on it stops the run (exit 3). Its header values are
 * redacted as placed env values are: a stdio neighbour that prints one on
 * stderr is recorded with `[redacted:<header>]`. A bad http entry is a usage error.
 */
import { expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { CONFIGURED_SERVER, events, writeScenario } from './testing/configured-kit.ts';
import { filesUnder } from './testing/configured-hostile-run.ts';

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

async function run(dir: string, remote: Record<string, unknown>, more: readonly string[] = []) {
  const config = writeConfig(dir, remote);
  const scenario = writeScenario(dir, []);
  const out = join(dir, 'run');
  const io = testIo(dir, { PATH: process.env['PATH'], HOME: process.env['HOME'], MCP_TOKEN: TOKEN });
  const code = await cli(['run', '--scenario', scenario, '--mcp-config', config, '--out', out, ...more], io);
  return { code, out, stdout: io.out(), stderr: io.err() };
}

test('an http entry is recorded as not started (spawn/unsupported_transport), the run goes on; its header values are redacted and never recorded', async () => {
  const dir = scratchDir('caplab-configured-http-');
  const ran = await run(dir, REMOTE);
  expect(ran.code).toBe(1); // the scenario makes no card: not accepted
  const [start] = events(ran.out);
  const end = events(ran.out).find((e) => e.type === 'run_end')!;
  expect(start!.servers.map((s: any) => [s.key, s.status, s.failure?.class, s.failure?.kind])).toEqual([
    ['remote', 'failed', 'spawn', 'unsupported_transport'],
    ['local', 'started', undefined, undefined],
  ]);
  expect(start!.servers[0].failure.message).toBe('https://mcp.example.test/mcp: HTTP servers connect once the HTTP client transport lands');
  // No tool carries an HTTP endpoint: the record keeps format 5.
  expect(end.format).toBe('caplab.ledger/5');
  expect(ran.stderr).toContain('server remote did not start (spawn/unsupported_transport)');
  const local = end.servers.find((s: any) => s.key === 'local');
  expect(local.stderr).toContain('leaked [redacted:X-Api-Key]');
  const holding = filesUnder(ran.out).filter((file) => file.text.includes(HEADER_VALUE) || file.text.includes(TOKEN)).map((file) => file.path);
  expect({ holding, stdout: ran.stdout.includes(TOKEN) || ran.stdout.includes(HEADER_VALUE), stderr: ran.stderr.includes(TOKEN) || ran.stderr.includes(HEADER_VALUE) }).toEqual({ holding: [], stdout: false, stderr: false });
}, 30_000);

test('--require-server on an http entry: exit 3, no run dir; a bad http entry is a usage error (exit 2)', async () => {
  const required = await run(scratchDir('caplab-configured-http-'), REMOTE, ['--require-server', 'remote']);
  expect(required.code).toBe(3);
  expect(required.stderr).toContain('remote: spawn/unsupported_transport');
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
