/**
 * Peer: probe `--url` against the pinned `@modelcontextprotocol/server-everything`
 * in its Streamable HTTP mode (`node dist/index.js streamableHttp`, port from
 * `PORT`), in a process of its own: the tool list probe reads over HTTP is
 * the one the same server lists over stdio (read here without caplab's
 * client). Afterwards the server is gone, its port refuses connections and
 * this process holds no socket it did not hold before.
 */
import { expect, onTestFinished, test } from 'bun:test';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { until } from '../../test/until.ts';
import { isRunning } from '../mcp/wire/testing/processes.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { everythingListing } from './testing/configured-kit.ts';
import { accepts, ROOT, socketCount } from './testing/serve-http.ts';

const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** A port nothing listens on now: one the kernel chose, released at once (server-everything takes `PORT`, not 0). */
function freePort(): number {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** server-everything over Streamable HTTP on a free port, stopped after the test with the checks every HTTP test owes. */
async function startEverythingHttp(): Promise<string> {
  const sockets = socketCount();
  const port = freePort();
  const proc = Bun.spawn(['node', EVERYTHING, 'streamableHttp'], { cwd: tmpdir(), env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', PORT: String(port) }, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
  onTestFinished(async () => {
    proc.kill('SIGKILL');
    await proc.exited;
    expect(isRunning(proc.pid)).toBe(false);
    expect(await accepts(port)).toBe(false);
    await until(() => socketCount() <= sockets);
    expect(socketCount()).toBeLessThanOrEqual(sockets);
  });
  // It logs its listening line before accepting; polling the port needs no parsing of its log.
  let up = false;
  const deadline = performance.now() + 20_000;
  while (!up && proc.exitCode === null && performance.now() < deadline) {
    up = await accepts(port);
    if (!up) await Bun.sleep(20);
  }
  if (!up) throw new Error(`server-everything did not listen on ${port}: ${await new Response(proc.stderr).text()}`);
  return `http://127.0.0.1:${port}/mcp`;
}

test('probe --url lists server-everything\'s tools over Streamable HTTP: the same names as over stdio; the session ended, no socket left', async () => {
  const [url, listing] = await Promise.all([startEverythingHttp(), everythingListing()]);
  const sockets = socketCount();
  const io = testIo('/', { PATH: '/usr/bin:/bin' });
  const code = await cli(['probe', '--json', '--url', url, '--call', 'get-sum', '--args', '{"a":2,"b":3}'], io);
  const report = JSON.parse(io.out());
  expect(report.failure).toBeUndefined();
  expect([code, report.exit, report.findings]).toEqual([0, 0, []]);
  expect(report.url).toBe(url);
  expect(report.serverInfo.name).toContain('everything');
  expect(report.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(listing.map((tool) => tool.name).sort());
  expect(report.calls).toMatchObject([{ tool: 'get-sum', outcome: 'result' }]);
  expect(JSON.stringify(report.calls[0])).toContain('The sum of 2 and 3 is 5.');
  expect(report.close.session).toMatchObject({ deleted: true });
  await until(() => socketCount() <= sockets);
  expect(socketCount()).toBeLessThanOrEqual(sockets);
}, 60_000);
