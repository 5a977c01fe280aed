/**
 * `caplab probe --url URL [--header-env NAME=VAR]…` and an http entry of a
 * `.mcp.json`: the flags, every usage error (exit 2) before anything
 * connects, and probe over HTTP against a real `caplab serve --http` in
 * another process (the call answered, a wrong token refused). No header
 * value is ever printed; no socket is left in this process.
 */
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { until } from '../../test/until.ts';
import { cli } from './cli.ts';
import { parseProbeFlags } from './probe-command.ts';
import { headersFromEnv } from './probe-http.ts';
import { testIo } from './test-io.ts';
import { socketCount, startServe } from './testing/serve-http.ts';

const TOKEN = 'Bearer tok_5e1f9a0c7b';
const URL = 'https://mcp.example.test/mcp';

test('flags: --url and each --header-env NAME=VAR in order; the variable\'s value is read when probe runs, as is', () => {
  expect(parseProbeFlags(['--url', URL, '--header-env', 'Authorization=MCP_TOKEN', '--header-env=X-Tenant=TENANT'])).toMatchObject({
    url: URL,
    headerEnv: [{ name: 'Authorization', variable: 'MCP_TOKEN' }, { name: 'X-Tenant', variable: 'TENANT' }],
    command: [],
  });
  expect(headersFromEnv([{ name: 'Authorization', variable: 'MCP_TOKEN' }], { MCP_TOKEN: TOKEN })).toEqual({ ok: true, value: { headers: { Authorization: TOKEN }, read: { MCP_TOKEN: TOKEN } } });
  for (const unset of [{}, { MCP_TOKEN: '' }]) {
    expect(headersFromEnv([{ name: 'Authorization', variable: 'MCP_TOKEN' }], unset)).toMatchObject({ ok: false, class: 'invalid_arguments', kind: 'unset_variable', message: '--header-env Authorization=MCP_TOKEN: MCP_TOKEN is not set' });
  }
});

test('usage errors: --url with --, --server, --env, --env-allow or --cwd; --header-env not NAME=VAR or without --url; a literal header', () => {
  const rows: [string[], string][] = [
    [['--url', URL, '--', 'srv'], 'give one of --server NAME, --url URL or -- CMD ARGS…, not --url URL and -- CMD ARGS…'],
    [['--url', URL, '--server', 's'], 'give one of --server NAME, --url URL or -- CMD ARGS…, not --server NAME and --url URL'],
    [['--url', URL, '--env', 'A=b'], '--env shape a spawned server; an HTTP server (--url) has no environment or cwd of probe\'s'],
    [['--url', URL, '--cwd', '.', '--env-allow', 'HOME'], '--env-allow, --cwd shape a spawned server; an HTTP server (--url) has no environment or cwd of probe\'s'],
    [['--url', URL, '--url', URL], '--url given twice; it takes one value'],
    [['--url'], '--url needs a value'],
    [['--url', URL, '--header-env', 'Authorization'], '--header-env needs NAME=VAR, VAR a variable name of [A-Za-z_][A-Za-z0-9_]* whose value is sent (got "Authorization")'],
    [['--url', URL, '--header-env', '=TOKEN'], '--header-env needs NAME=VAR'],
    [['--url', URL, '--header-env', 'Authorization='], '--header-env needs NAME=VAR'],
    [['--url', URL, '--header-env', 'Authorization=Bearer tok'], '--header-env needs NAME=VAR'],
    [['--header-env', 'A=B', '--', 'srv'], '--header-env goes with --url (a config entry\'s headers are its own)'],
    [['--url', URL, '--header', `Authorization: ${TOKEN}`], '--header is not taken: a header\'s value comes from the environment (--header-env NAME=VAR), never the command line'],
    [['--url', URL, '-H', `Authorization: ${TOKEN}`], '-H is not taken'],
  ];
  for (const [args, message] of rows) {
    const parsed = parseProbeFlags(args);
    expect({ args, starts: typeof parsed === 'string' && parsed.startsWith(message) }).toEqual({ args, starts: true });
  }
});

test('each refusal exits 2 before anything connects, naming its class and kind, never a header value', async () => {
  const env = { PATH: '/usr/bin:/bin', MCP_TOKEN: TOKEN, NEWLINE: 'a\r\nInjected: 1' };
  const rows: [string[], string][] = [
    [['--url', URL, '--header-env', 'Authorization=UNSET_TOKEN'], 'invalid_arguments/unset_variable: --header-env Authorization=UNSET_TOKEN: UNSET_TOKEN is not set'],
    [['--url', 'http://mcp.example.test/mcp', '--header-env', 'Authorization=MCP_TOKEN'], 'invalid_arguments/plaintext_headers: headers Authorization would cross the network unencrypted to mcp.example.test over http:'],
    [['--url', 'ftp://mcp.example.test/mcp'], 'invalid_arguments/bad_url: ftp: URL'],
    [['--url', 'https://u:p@mcp.example.test/mcp'], 'invalid_arguments/literal_credential: the URL holds a user or password'],
    [['--url', URL, '--header-env', 'Mcp-Session-Id=MCP_TOKEN'], 'invalid_arguments/bad_header: header Mcp-Session-Id is set by the HTTP transport itself'],
    [['--url', URL, '--header-env', 'X-A=NEWLINE'], 'invalid_arguments/bad_header: header X-A: its value holds a CR, LF or NUL'],
    [['--url', URL, '--header-env', 'Authorization=MCP_TOKEN', '--header-env', 'authorization=MCP_TOKEN'], 'invalid_arguments/bad_header: headers Authorization and authorization are one header'],
  ];
  for (const [args, message] of rows) {
    const io = testIo('/', env);
    expect({ args, code: await cli(['probe', ...args], io) }).toEqual({ args, code: 2 });
    const [classKind, ...rest] = message.split(': ');
    expect(io.err()).toContain(`caplab probe: ${classKind}: ${classKind!.endsWith('unset_variable') ? '' : '--url: '}${rest.join(': ')}`);
    expect(io.out() + io.err()).not.toContain('tok_5e1f9a0c7b');
  }
});

describe('--url against a real caplab serve --http (another process)', () => {
  const SERVE_TOKEN = 'tok_5e1f9a0c7b';
  const serveEnv = { CAPLAB_TEST_TOKEN: SERVE_TOKEN };

  test('lists read_source and --call read_source answers; names shown, values never; no socket left', async () => {
    const served = await startServe(['--token-env', 'CAPLAB_TEST_TOKEN'], serveEnv);
    const sockets = socketCount();
    const io = testIo('/', { PATH: '/usr/bin:/bin', MCP_TOKEN: TOKEN });
    expect(await cli(['probe', '--url', served.url, '--header-env', 'Authorization=MCP_TOKEN', '--call', 'read_source', '--args', '{"source_id":"alpha"}'], io)).toBe(0);
    expect(io.err()).toContain(`caplab probe: connecting to ${served.url}\n  headers Authorization (values not shown)\n`);
    expect(io.out()).toContain(`probe: ${served.url}\n  headers   Authorization (values not shown)\n`);
    expect(io.out()).toContain('server    caplab-fixture 1.0.0, MCP 2025-06-18');
    expect(io.out()).toMatch(/call +read_source +result/);
    expect(io.out()).toContain('The lighthouse keeper');
    expect(io.out()).toMatch(/closed +DELETE → 2\d\d; no request in flight/);
    const json = testIo('/', { PATH: '/usr/bin:/bin', MCP_TOKEN: TOKEN });
    expect(await cli(['probe', '--json', '--url', served.url, '--header-env', 'Authorization=MCP_TOKEN'], json)).toBe(0);
    const report = JSON.parse(json.out());
    expect(report).toMatchObject({ url: served.url, headerNames: ['Authorization'], protocolVersion: '2025-06-18', tools: [{ name: 'read_source' }], stderr: '', exit: 0 });
    expect(report.close.session.deleted).toBe(true);
    expect(report).not.toHaveProperty('command');
    for (const text of [io.out(), io.err(), json.out(), json.err()]) expect(text).not.toContain(SERVE_TOKEN);
    await until(() => socketCount() <= sockets);
    expect(socketCount()).toBeLessThanOrEqual(sockets);
  });

  test('a wrong token is exit 3 naming auth/unauthorized, nothing listed, the call not sent; a refused port is closed/unreachable', async () => {
    const served = await startServe(['--token-env', 'CAPLAB_TEST_TOKEN'], serveEnv);
    const io = testIo('/', { PATH: '/usr/bin:/bin', MCP_TOKEN: 'Bearer not-the-token' });
    expect(await cli(['probe', '--json', '--url', served.url, '--header-env', 'Authorization=MCP_TOKEN', '--call', 'read_source'], io)).toBe(3);
    const report = JSON.parse(io.out());
    expect(report).toMatchObject({ tools: [], failure: { class: 'auth', kind: 'unauthorized' }, exit: 3 });
    expect(report.failure.message).toContain('HTTP 401');
    expect(report.calls).toMatchObject([{ tool: 'read_source', outcome: 'not_sent', why: 'the session ended first: auth/unauthorized' }]);
    expect(io.out() + io.err()).not.toContain('not-the-token');
    const refused = testIo('/', { PATH: '/usr/bin:/bin' });
    expect(await cli(['probe', '--url', 'http://127.0.0.1:9/mcp'], refused)).toBe(3);
    expect(refused.out()).toContain('ENDED     closed/unreachable');
    expect(refused.out()).not.toContain('server    exit');
  });
});

test('--server NAME on an http entry probes it over HTTP; its header values and the variables they came from are never printed', async () => {
  const served = await startServe(['--token-env', 'CAPLAB_TEST_TOKEN'], { CAPLAB_TEST_TOKEN: 'tok_5e1f9a0c7b' });
  const dir = scratchDir('caplab-probe-http-entry-');
  const url = `${served.url}?tenant=\${TENANT}`;
  writeFileSync(join(dir, 'servers.json'), JSON.stringify({ mcpServers: { remote: { type: 'http', url, headers: { Authorization: 'Bearer ${MCP_TOKEN}', 'X-Tenant': '${TENANT}' } }, literal: { type: 'http', url: URL, headers: { Authorization: TOKEN } } } }));
  const env = { PATH: '/usr/bin:/bin', MCP_TOKEN: 'tok_5e1f9a0c7b', TENANT: 'tenant-acme' };
  const io = testIo(dir, env);
  expect(await cli(['probe', '--mcp-config', 'servers.json', '--server', 'remote'], io)).toBe(0);
  expect(io.err()).toContain(`connecting to ${served.url}?tenant=[redacted:TENANT]\n  headers Authorization, X-Tenant (values not shown)`);
  expect(io.out()).toMatch(/\n {4}read_source {2}input /);
  for (const secret of ['tok_5e1f9a0c7b', 'tenant-acme']) expect(io.out() + io.err()).not.toContain(secret);
  // The entry is refused when it is read: a literal Authorization, and flags that shape a spawned server.
  const literal = testIo(dir, env);
  expect(await cli(['probe', '--mcp-config', 'servers.json', '--server', 'literal'], literal)).toBe(2);
  expect(literal.err()).toContain('invalid_arguments/literal_credential');
  expect(literal.err()).not.toContain('tok_5e1f9a0c7b');
  const spawnOnly = testIo(dir, env);
  expect(await cli(['probe', '--mcp-config', 'servers.json', '--server', 'remote', '--cwd', '.'], spawnOnly)).toBe(2);
  expect(spawnOnly.err()).toContain('--cwd shape a spawned server; server "remote" is an http entry');
});
