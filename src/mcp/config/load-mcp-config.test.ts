import { describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS, type FailureKind } from '../../contract/index.ts';
import { scratchDir } from '../../../test/scratch.ts';
import { loadMcpConfig, PROJECT_MCP_CONFIG, type McpConfigOptions } from './load-mcp-config.ts';

/** A folder holding `files` (name → text), and options to load from it. */
function folder(files: Record<string, string>, options: Partial<McpConfigOptions> = {}): McpConfigOptions {
  const cwd = scratchDir('caplab-mcp-config-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(cwd, name, '..'), { recursive: true });
    writeFileSync(join(cwd, name), text);
  }
  return { cwd, trust: true, source: {}, ...options };
}

const config = (servers: unknown) => JSON.stringify({ mcpServers: servers });

test('every entry comes back in file order: stdio and http parsed, sse kept as unsupported, a malformed one as invalid', () => {
  const options = folder({
    [PROJECT_MCP_CONFIG]: config({
      notes: { command: '/usr/bin/notes', args: ['--ro'], env: { LEVEL: 'debug' } },
      remote: { type: 'http', url: 'https://example.invalid/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
      broken: { args: ['x'] },
      events: { type: 'sse', url: 'https://example.invalid/sse' },
      typed: { type: 'stdio', command: 'srv' },
    }),
  }, { source: { TOKEN: 'tok_123456789' } });
  const loaded = loadMcpConfig(options);
  if (!loaded.ok) throw new Error(loaded.message);
  const path = join(options.cwd, PROJECT_MCP_CONFIG);
  expect(loaded.value).toEqual({
    path,
    entries: [
      { kind: 'stdio', name: 'notes', raw: ['/usr/bin/notes', '--ro'], command: ['/usr/bin/notes', '--ro'], folder: options.cwd, env: { LEVEL: 'debug' }, expanded: {} },
      { kind: 'http', name: 'remote', rawUrl: 'https://example.invalid/mcp', url: 'https://example.invalid/mcp', headers: { Authorization: 'Bearer tok_123456789' }, headerNames: ['Authorization'], expanded: { TOKEN: 'tok_123456789' } },
      { kind: 'invalid', name: 'broken', failure: { ok: false, class: 'invalid_arguments', kind: 'malformed_config', message: `${path}: server "broken" has no "command" string` } },
      { kind: 'unsupported', name: 'events', type: 'sse' },
      { kind: 'stdio', name: 'typed', raw: ['srv'], command: ['srv'], folder: options.cwd, env: {}, expanded: {} },
    ],
  });
});

test('the order is the text\'s, also for names JSON.parse would move first (index-like names)', () => {
  const text = '{"mcpServers": {"zeta": {"command": "z"}, "2": {"command": "two"}, "alpha": {"command": "a"}, "1": {"command": "one"}}}';
  expect(Object.keys(JSON.parse(text).mcpServers)).toEqual(['1', '2', 'zeta', 'alpha']);
  const loaded = loadMcpConfig(folder({ 'servers.json': text }, { file: 'servers.json' }));
  expect(loaded.ok && loaded.value.entries.map((entry) => entry.name)).toEqual(['zeta', '2', 'alpha', '1']);
});

test('${VAR} and ${VAR:-default} expand in command, args and env; what was read is kept for redaction; an unset one makes that entry invalid only', () => {
  const options = folder(
    {
      [PROJECT_MCP_CONFIG]: config({
        s: { command: '${BIN:-/usr/bin/srv}', args: ['--token=${TOKEN}'], env: { KEY: '${TOKEN}', LEVEL: '${LEVEL:-info}' } },
        missing: { command: 'srv', env: { KEY: '${NOPE}' } },
      }),
    },
    { source: { TOKEN: 'tok_123456789', LEVEL: '' } },
  );
  const loaded = loadMcpConfig(options);
  if (!loaded.ok) throw new Error(loaded.message);
  const [s, missing] = loaded.value.entries;
  expect(s).toEqual({ kind: 'stdio', name: 's', raw: ['${BIN:-/usr/bin/srv}', '--token=${TOKEN}'], command: ['/usr/bin/srv', '--token=tok_123456789'], folder: options.cwd, env: { KEY: 'tok_123456789', LEVEL: 'info' }, expanded: { TOKEN: 'tok_123456789' } });
  expect(missing).toMatchObject({ kind: 'invalid', name: 'missing', failure: { kind: 'unset_variable', message: `${loaded.value.path}: server "missing": env KEY: \${NOPE} is not set and has no default` } });
});

test('each malformed entry names what is wrong, the first fault first', () => {
  const cases: [unknown, string][] = [
    ['a string', 'server "s" is not an object'],
    [{ command: '' }, 'server "s" has no "command" string'],
    [{ command: 7 }, 'server "s" has no "command" string'],
    [{ command: 'x', args: 'y' }, '"args" must be an array of strings'],
    [{ command: 'x', args: ['y', 2] }, '"args" must be an array of strings'],
    [{ command: 'x', env: ['A'] }, '"env" must map names to strings'],
    [{ command: 'x', env: { A: 1 } }, '"env" must map names to strings'],
    [{ command: 'x', env: { 'A-B': 'v' } }, 'server "s": env name "A-B" is not [A-Za-z_][A-Za-z0-9_]*'],
    [{ command: 'x', env: { '': 'v' } }, 'server "s": env name "" is not [A-Za-z_][A-Za-z0-9_]*'],
    [{ type: 7, command: 'x' }, 'server "s": "type" must be a string'],
    [{ args: 'y', env: 3 }, 'server "s" has no "command" string'],
    [{ command: '${EMPTY:-}' }, 'server "s": "command" expands to an empty string'],
  ];
  for (const [entry, message] of cases) {
    const options = folder({ [PROJECT_MCP_CONFIG]: config({ s: entry }) });
    const loaded = loadMcpConfig(options);
    if (!loaded.ok) throw new Error(loaded.message);
    expect({ entry, loaded: loaded.value.entries[0] }).toEqual({ entry, loaded: { kind: 'invalid', name: 's', failure: { ok: false, class: 'invalid_arguments', kind: 'malformed_config', message: `${loaded.value.path}: ${message}` } } });
  }
});

test('the file as a whole: not JSON, nested past fileJsonDepth, larger than settingsBytes, no mcpServers object, missing', () => {
  const deep = `{"mcpServers": {"s": {"command": "x", "extra": ${'['.repeat(LIMITS.fileJsonDepth)}${']'.repeat(LIMITS.fileJsonDepth)}}}}`;
  const big = config({ s: { command: 'x', args: ['y'.repeat(LIMITS.settingsBytes)] } });
  const cases: [string, Record<string, unknown>][] = [
    ['{"mcpServers": ', { class: 'invalid_arguments', kind: 'malformed_config' }],
    [deep, { class: 'invalid_arguments', kind: 'too_deep' }],
    [big, { class: 'precondition', kind: 'too_large' }],
    ['{"servers": {}}', { class: 'invalid_arguments', kind: 'malformed_config', message: expect.stringContaining('no "mcpServers" object') }],
    ['{"mcpServers": []}', { kind: 'malformed_config' }],
    ['[]', { kind: 'malformed_config' }],
    ['null', { kind: 'malformed_config' }],
  ];
  for (const [text, failure] of cases) {
    const options = folder({ 'c.json': text }, { file: 'c.json' });
    expect({ text: text.slice(0, 40), loaded: loadMcpConfig(options) }).toEqual({ text: text.slice(0, 40), loaded: expect.objectContaining({ ok: false, ...failure }) });
  }
  const options = folder({}, { file: 'nowhere.json' });
  expect(loadMcpConfig(options)).toMatchObject({ ok: false, class: 'precondition' });
  // Within the bound, the same nesting is read.
  const shallow = `{"mcpServers": {"s": {"command": "x", "extra": ${'['.repeat(LIMITS.fileJsonDepth - 3)}${']'.repeat(LIMITS.fileJsonDepth - 3)}}}}`;
  expect(loadMcpConfig(folder({ 'c.json': shallow }, { file: 'c.json' }))).toMatchObject({ ok: true });
});

test('the project file is used only with trust: found, named, or through a symlink; any other file as named', () => {
  const text = config({ s: { command: 'x' } });
  const options = folder({ [PROJECT_MCP_CONFIG]: text, 'other.json': text }, { trust: false });
  symlinkSync(join(options.cwd, PROJECT_MCP_CONFIG), join(options.cwd, 'link.json'));
  for (const file of [undefined, PROJECT_MCP_CONFIG, 'link.json']) {
    expect(loadMcpConfig({ ...options, ...(file ? { file } : {}) })).toMatchObject({ ok: false, class: 'permission_denied', kind: 'untrusted_project' });
    expect(loadMcpConfig({ ...options, ...(file ? { file } : {}), trust: true })).toMatchObject({ ok: true });
  }
  expect(loadMcpConfig({ ...options, file: 'other.json' })).toMatchObject({ ok: true, value: { path: join(options.cwd, 'other.json') } });
});

test('an entry\'s folder is the config file\'s, wherever the caller is', () => {
  const options = folder({ 'deep/er/servers.json': config({ s: { command: './srv' } }) }, { file: 'deep/er/servers.json' });
  const loaded = loadMcpConfig(options);
  expect(loaded.ok && loaded.value.entries[0]).toMatchObject({ kind: 'stdio', command: ['./srv'], folder: join(options.cwd, 'deep/er') });
});

describe('an http entry', () => {
  const load = (entry: unknown, source: Record<string, string> = {}) => {
    const loaded = loadMcpConfig(folder({ [PROJECT_MCP_CONFIG]: config({ s: entry }) }, { source }));
    if (!loaded.ok) throw new Error(loaded.message);
    return { path: loaded.value.path, entry: loaded.value.entries[0]! };
  };

  test('${VAR} expands in its url and header values; what was read is kept for redaction; the header names sorted', () => {
    const { entry } = load(
      { type: 'http', url: 'https://${HOST:-mcp.example.test}/mcp?tenant=${TENANT}', headers: { 'X-Tenant': '${TENANT}', Authorization: '${AUTH}' }, command: 'ignored' },
      { TENANT: 'acme-west', AUTH: 'Bearer s3cret-token' },
    );
    expect(entry).toEqual({
      kind: 'http',
      name: 's',
      rawUrl: 'https://${HOST:-mcp.example.test}/mcp?tenant=${TENANT}',
      url: 'https://mcp.example.test/mcp?tenant=acme-west',
      headers: { 'X-Tenant': 'acme-west', Authorization: 'Bearer s3cret-token' },
      headerNames: ['Authorization', 'X-Tenant'],
      expanded: { TENANT: 'acme-west', AUTH: 'Bearer s3cret-token' },
    });
    // Over plain http to a loopback host, headers are allowed; the URL is as connected to.
    expect(load({ type: 'http', url: 'http://127.0.0.1:8080/mcp', headers: { Authorization: 'Bearer ${T}' } }, { T: 'tok_1234' }).entry).toMatchObject({ kind: 'http', url: 'http://127.0.0.1:8080/mcp' });
    expect(load({ type: 'http', url: 'http://example.test/mcp' }).entry).toMatchObject({ kind: 'http', url: 'http://example.test/mcp', headerNames: [] });
  });

  test('each refusal is the entry\'s, invalid_arguments naming the file, the entry and the rule; no header value is quoted', () => {
    const cases: [unknown, Record<string, string>, FailureKind, string][] = [
      [{ type: 'http', url: 'https://h.test/mcp', headers: { Authorization: '${NOPE}' } }, {}, 'unset_variable', 'header Authorization: ${NOPE} is not set and has no default'],
      [{ type: 'http', url: 'https://${NOHOST}/mcp' }, {}, 'unset_variable', 'url: ${NOHOST} is not set and has no default'],
      [{ type: 'http', url: 'https://h.test/mcp', headers: { Authorization: 'Bearer abc123literal' } }, {}, 'literal_credential', 'header Authorization must be "${VAR}" or "Bearer ${VAR}" (no default): credentials come from the environment, never the file'],
      [{ type: 'http', url: 'https://h.test/mcp', headers: { authorization: 'Bearer ${T:-fallback-token}' } }, { T: 'tok_1234' }, 'literal_credential', 'header authorization must be'],
      [{ type: 'http', url: 'https://h.test/mcp', headers: { Authorization: 'Token ${T}' } }, { T: 'tok_1234' }, 'literal_credential', 'header Authorization must be'],
      [{ type: 'http', url: 'https://h.test/mcp', headers: { Authorization: '${A}${B}' } }, { A: 'aaaa', B: 'bbbb' }, 'literal_credential', 'header Authorization must be'],
      [{ type: 'http', url: 'http://mcp.example.test/mcp', headers: { Authorization: 'Bearer ${T}' } }, { T: 'tok_1234' }, 'plaintext_headers', 'headers Authorization would cross the network unencrypted to mcp.example.test over http:'],
      [{ type: 'http', url: 'http://10.0.0.1/mcp', headers: { 'X-Key': 'k' } }, {}, 'plaintext_headers', 'to 10.0.0.1 over http:'],
      [{ type: 'http', url: 'ftp://h.test/mcp' }, {}, 'bad_url', 'ftp: URL "ftp://h.test/mcp": caplab speaks Streamable HTTP over http: and https: only'],
      [{ type: 'http', url: 'file:///tmp/x' }, {}, 'bad_url', 'file: URL'],
      [{ type: 'http', url: 'not a url' }, {}, 'bad_url', '"not a url" is not a URL'],
      [{ type: 'http', url: 'https://user:pw@h.test/mcp' }, {}, 'literal_credential', 'the URL holds a user or password'],
      [{ type: 'http', url: 'https://h.test/mcp', headers: { 'Bad Name': 'x' } }, {}, 'bad_header', 'header name "Bad Name" is not an HTTP token'],
      [{ type: 'http', url: 'https://h.test/mcp', headers: { 'Mcp-Session-Id': 'x' } }, {}, 'bad_header', 'header Mcp-Session-Id is set by the HTTP transport itself'],
      [{ type: 'http', url: 'https://h.test/mcp', headers: { 'X-A': 'a', 'x-a': 'b' } }, {}, 'bad_header', 'headers X-A and x-a are one header'],
      [{ type: 'http', url: 'https://h.test/mcp', headers: { 'X-A': '${NL}' } }, { NL: 'line1\r\nInjected: yes' }, 'bad_header', 'header X-A: its value holds a CR, LF or NUL'],
      [{ type: 'http' }, {}, 'malformed_config', 'server "s" has no "url" string'],
      [{ type: 'http', url: 'https://h.test/mcp', headers: ['x'] }, {}, 'malformed_config', '"headers" must map names to strings'],
      [{ type: 'http', url: 'https://h.test/mcp', headers: { A: 1 } }, {}, 'malformed_config', '"headers" must map names to strings'],
    ];
    for (const [written, source, kind, message] of cases) {
      const { path, entry } = load(written, source);
      const failure = entry.kind === 'invalid' ? entry.failure : undefined;
      expect({ written, kind: failure?.kind, class: failure?.class, starts: failure?.message.startsWith(`${path}: `), says: failure?.message.includes(message) }).toEqual({ written, kind, class: 'invalid_arguments', starts: true, says: true });
      for (const value of Object.values(source)) expect(failure?.message.includes(value)).toBe(false);
    }
  });

  test('loopback is localhost, 127.0.0.0/8 and [::1]; sse and ws stay unsupported', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]']) expect(load({ type: 'http', url: `http://${host}:9/mcp`, headers: { 'X-K': 'v' } }).entry.kind).toBe('http');
    for (const host of ['localhost.example.test', '128.0.0.1', '[::2]', '0.0.0.0']) expect(load({ type: 'http', url: `http://${host}:9/mcp`, headers: { 'X-K': 'v' } }).entry).toMatchObject({ kind: 'invalid', failure: { kind: 'plaintext_headers' } });
    for (const type of ['sse', 'ws']) expect(load({ type, url: 'https://h.test/x' }).entry).toEqual({ kind: 'unsupported', name: 's', type });
  });
});
