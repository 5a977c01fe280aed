/**
 * Acceptance of issue 22 for `caplab tools --mcp-config`: the pinned
 * server-everything listed as a run binds it, and a failed server named with
 * its class and kind.
 */
import { expect, test } from 'bun:test';
import { canonicalHash } from '../contract/index.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { MAIN, ROOT } from './testing/serve-http.ts';
import { caplab, EVERYTHING_CONFIG, everythingListing, hasDefault, serversLeft, testServer, writeConfig } from './testing/configured-kit.ts';

const MODEL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

test('tools --mcp-config everything.mcp.json --json: 13 tools as mcp__everything__<tool>, the 6 with a default bound, get-sum without a result schema, every one ask', async () => {
  const [listing, { code, out, err }] = await Promise.all([everythingListing(), caplab(['tools', '--mcp-config', EVERYTHING_CONFIG, '--json'], scratchDir())]);
  expect(err).toBe('');
  expect(code).toBe(0);
  const { servers } = JSON.parse(out);
  expect(servers.map((s: any) => [s.key, s.status, s.server.name])).toEqual([['everything', 'started', 'mcp-servers/everything']]);
  const tools: any[] = servers[0].tools;
  expect(tools).toHaveLength(13);
  expect(tools.map((t) => t.name).sort()).toEqual(listing.map((t) => t.name).sort());
  for (const tool of tools) {
    expect([tool.status, tool.model_name, tool.full_name, tool.default_permission]).toEqual(['bound', `mcp__everything__${tool.name}`, `mcp__everything__${tool.name}`, 'ask']);
    expect(tool.model_name).toMatch(MODEL_NAME);
    // Listed schemas are hashed as given.
    expect(tool.schema_hash).toBe(canonicalHash(listing.find((t) => t.name === tool.name)!.inputSchema));
  }
  const withDefault = listing.filter((t) => hasDefault(t.inputSchema)).map((t) => t.name);
  expect(withDefault).toHaveLength(6);
  expect(tools.filter((t) => withDefault.includes(t.name)).map((t) => t.status)).toEqual(Array(6).fill('bound'));
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  expect(byName['get-sum'].result_schema_hash).toBeNull();
  expect(byName['get-structured-content'].result_schema_hash).toBe(canonicalHash(listing.find((t) => t.name === 'get-structured-content')!.outputSchema));
  // Annotations are kept as hints and change nothing: echo says read-only, and is still ask.
  expect([byName['echo'].hints.readOnlyHint, byName['echo'].default_permission]).toEqual([true, 'ask']);
}, 60_000);

test('tools --mcp-config: a failed server is listed with its class and kind, the others as bound, and no server is left running', async () => {
  const dir = scratchDir();
  const mark = `tools-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { a: testServer('echo'), gone: { command: `${dir}/no-such-server` } });
  const { code, out, err } = await caplab(['tools', '--mcp-config', config, '--json'], dir);
  expect(code).toBe(0);
  const { servers } = JSON.parse(out);
  expect(servers.map((s: any) => [s.key, s.status, s.failure?.class, s.failure?.kind])).toEqual([
    ['a', 'started', undefined, undefined],
    ['gone', 'failed', 'spawn', 'spawn_failed'],
  ]);
  expect(servers[0].tools.map((t: any) => t.model_name)).toEqual(['mcp__a__echo', expect.stringMatching(/^mcp__a__dotted_name_[0-9a-f]{8}$/), expect.stringMatching(/^mcp__a__long_x+_[0-9a-f]{8}$/)]);
  expect(err).toContain('server gone did not start (spawn/spawn_failed)');
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

test('tools --mcp-config at 2025-11-25: a tool\'s title and icons and the server\'s description, website and icons are shown (cut, inert), never fetched; the binding is the one without them', async () => {
  const dir = scratchDir();
  const mark = `tools-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { d: testServer('display'), e: testServer('names', 'echo') });
  const json = await caplab(['tools', '--mcp-config', config, '--json'], dir);
  expect([json.code, json.err]).toEqual([0, '']);
  const [d, e] = JSON.parse(json.out).servers;
  expect(d.server).toEqual({ name: 'same-name', version: '1.0.0', protocolVersion: '2025-11-25', description: 'Echoes for people.', websiteUrl: 'https://echo.example.test', icons: [{ src: 'https://echo.example.test/i.svg' }] });
  const echo = d.tools[0];
  expect(echo.title).toBe('Echo \u001b[31mback');
  expect(echo.icons).toHaveLength(2);
  expect(echo.icons[0]).toEqual({ src: 'https://icons.example.test/echo.png', mimeType: 'image/png', sizes: ['48x48'] });
  expect(echo.icons[1].src.length).toBeLessThan(200);
  // Display only: the same tool without them binds the same contract, and no such field is there.
  expect(echo.schema_hash).toBe(e.tools[0].schema_hash);
  expect(e.tools[0]).not.toHaveProperty('title');
  const text = await caplab(['tools', '--mcp-config', config], dir);
  expect(text.code).toBe(0);
  expect(text.out).toContain('  (description "Echoes for people."  website https://echo.example.test  icons 1: https://echo.example.test/i.svg; shown, never fetched)');
  expect(text.out).toContain('    title "Echo \\x1b[31mback"  icons 2: https://icons.example.test/echo.png, data:image/png;base64,AAA');
  expect(text.out).not.toContain('\u001b');
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

test('tools --mcp-config on caplab serve (2025-11-25): count_words is listed as a task tool (its background contract), read_source is not', async () => {
  const dir = scratchDir();
  const config = join(dir, 'serve.mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { serve: { command: process.execPath, args: [MAIN, 'serve'], cwd: ROOT } } }));
  const json = await caplab(['tools', '--mcp-config', config, '--json'], dir);
  expect([json.code, json.err]).toEqual([0, '']);
  const tools = JSON.parse(json.out).servers[0].tools;
  expect(tools.map((t: { name: string; task?: string }) => [t.name, t.task ?? null])).toEqual([['read_source', null], ['count_words', 'optional']]);
  const text = await caplab(['tools', '--mcp-config', config], dir);
  expect(text.out).toMatch(/mcp__serve__count_words {2}ask .* {2}task \(optional\)\n/);
}, 60_000);
