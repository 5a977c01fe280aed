/**
 * A signal while a configured server is still starting (it may take up to
 * --startup-timeout-ms): the real program, signalled once the server runs,
 * stops at once with the signal's exit code, and leaves neither the server
 * nor its fresh cwd behind.
 */
import { afterEach, expect, test } from 'bun:test';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { until } from '../../test/until.ts';
import { killAllWith, livingWith, waitNoneWith } from '../platform/testing/find.ts';

const main = join(import.meta.dir, '../main.ts');
const markers: string[] = [];
const started: Bun.Subprocess[] = [];

afterEach(async () => {
  for (const child of started.splice(0)) {
    child.kill('SIGKILL');
    await child.exited;
  }
  for (const m of markers.splice(0)) killAllWith(m);
});

for (const [command, signal, code] of [['tools', 'SIGINT', 130], ['run', 'SIGTERM', 143]] as const) {
  test(`${command} --mcp-config: ${signal} while a server has not answered initialize ends the command with ${code}, the server and its cwd gone`, async () => {
    const dir = scratchDir('caplab-configured-signal-');
    const tmp = scratchDir('caplab-configured-tmp-');
    // A sleep of a duration no other process uses: the server that never answers, found by it.
    const marker = `${800 + markers.length}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
    markers.push(marker);
    const config = join(dir, 'slow.mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { slow: { command: 'sleep', args: [marker] } } }));
    const args = command === 'tools' ? ['tools', '--mcp-config', config] : ['run', '--scenario', 'happy', '--mcp-config', config, '--out', join(dir, 'run')];
    const child = Bun.spawn([process.execPath, main, ...args], { cwd: dir, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TMPDIR: tmp }, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
    started.push(child);
    const output = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    await until(() => livingWith(marker).length > 0, 20_000);
    expect(livingWith(marker).length).toBeGreaterThan(0);
    child.kill(signal);
    const [, stderr, exit] = await output;
    const said = command === 'tools' ? `caplab: interrupted by ${signal}` : `caplab: precondition/run_interrupted: interrupted by ${signal} before the run started`;
    expect({ exit, stderr: stderr.split('\n').filter((line) => line.startsWith('caplab:')) }).toEqual({ exit: code, stderr: [said] });
    expect(await waitNoneWith(marker, 10_000)).toEqual([]);
    await until(() => readdirSync(tmp).filter((name) => name.startsWith('caplab-server-')).length === 0, 10_000);
    expect(readdirSync(tmp).filter((name) => name.startsWith('caplab-server-'))).toEqual([]);
    // No run began: no run dir.
    expect(readdirSync(dir).sort()).toEqual(['slow.mcp.json']);
  }, 60_000);
}
