/**
 * Acceptance of issue 22 for `caplab check --mcp-config`: one `server-<key>`
 * case per configured server beside the built-in cases, in the table, the
 * JSON document and the JUnit file.
 */
import { expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { caplab, serversLeft, testServer, writeConfig } from './testing/configured-kit.ts';

test('check --mcp-config adds a passing server-<key> case per server that starts, binds every tool and closes clean; the built-in cases still run', async () => {
  const dir = scratchDir();
  const mark = `check-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { a: testServer('echo') });
  const [plain, configured] = [await caplab(['check', '--json', '--out', join(dir, 'plain')], dir), await caplab(['check', '--json', '--mcp-config', config, '--out', join(dir, 'runs')], dir)];
  expect([plain.code, configured.code]).toEqual([0, 0]);
  const before = JSON.parse(plain.out);
  const doc = JSON.parse(configured.out);
  expect(doc.scenarios).toBe(before.scenarios + 1);
  expect(doc.results[0]).toMatchObject({ id: 'server-a', passed: true, transport: 'mcp', observed: 'started, 3 tools bound, closed clean' });
  expect(doc.results.slice(1).map((r: any) => [r.id, r.passed])).toEqual(before.results.map((r: any) => [r.id, r.passed]));
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

test('check --mcp-config: a server that does not start is a failing case (exit 1) with its class and kind, and the JUnit file shows it', async () => {
  const dir = scratchDir();
  const mark = `check-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { a: testServer('echo'), gone: { command: join(dir, 'no-such-server') } });
  const junit = join(dir, 'report.xml');
  const { code, out, err } = await caplab(['check', '--mcp-config', config, '--junit', junit, '--out', join(dir, 'runs')], dir);
  expect(code).toBe(1);
  expect(out).toMatch(/✗ server-gone +expected: .*\n +observed: did not start: spawn\/spawn_failed\n/);
  expect(out).toMatch(/✓ server-a /);
  expect(out).toContain('1 scenario(s) did not end as expected');
  expect(err).toContain('server gone did not start (spawn/spawn_failed)');
  const xml = readFileSync(junit, 'utf8');
  expect(xml).toMatch(/<testcase classname="caplab\.check\.mcp" name="server-gone">\s*<failure message="[^"]*observed did not start: spawn\/spawn_failed" type="spawn\/spawn_failed">/);
  expect(xml).toMatch(/<testcase classname="caplab\.check\.mcp" name="server-a">\s*<system-out>/);
  expect(xml.match(/<failure /g)).toHaveLength(1);
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

test('check --mcp-config --require-server: a required server that does not start stops the check (exit 3) before any run dir', async () => {
  const dir = scratchDir();
  const mark = `check-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { a: testServer('echo'), gone: { command: join(dir, 'no-such-server') } });
  const { code, err } = await caplab(['check', '--mcp-config', config, '--require-server', 'gone', '--out', join(dir, 'runs')], dir);
  expect(code).toBe(3);
  expect(err).toContain('spawn/required_server');
  expect(existsSync(join(dir, 'runs'))).toBe(false);
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);
