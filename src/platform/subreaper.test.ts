import { afterEach, expect, test } from 'bun:test';
import { join } from 'node:path';
import { mergeReports, reapOrphans } from './index.ts';
import { killAllWith, livingWith, waitNoneWith } from './testing/find.ts';

const script = join(import.meta.dir, 'testing', 'escape.ts');
const markers: string[] = [];
/** A sleep duration no other process uses, to find exactly the processes of this test. */
const marker = () => {
  const m = `${600 + markers.length}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
  markers.push(`${m}1`, `${m}2`);
  return m;
};
afterEach(() => {
  for (const m of markers.splice(0)) killAllWith(m);
});

async function escape(m: string, subreaper: boolean) {
  const child = Bun.spawn([process.execPath, script, m, subreaper ? '1' : '0'], { stdout: 'pipe', stderr: 'pipe', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect({ code, err }).toEqual({ code: 0, err: '' });
  return JSON.parse(out);
}

test('as a child subreaper, a process that called setsid is found, killed and reaped at the sweep; a tracked child is left alone', async () => {
  const m = marker();
  const result = await escape(m, true);
  expect(result).toEqual({ became: { enabled: true }, report: { subreaper: true, killed: [{ name: 'sleep', count: 1 }], survivors: [] }, keptAlive: true });
  expect(await waitNoneWith(`${m}2`)).toEqual([]);
});

test('without the subreaper the escaped process outlives its parent (the gap, said in the report)', async () => {
  const m = marker();
  const result = await escape(m, false);
  expect(result.report).toMatchObject({ subreaper: false, killed: [], survivors: [] });
  expect(result.report.gap).toContain('setsid');
  expect(livingWith(`${m}2`).length).toBe(1);
});

test('in a process that is not a subreaper (this test process) the sweep signals nothing and states the gap', async () => {
  const bystander = Bun.spawn(['sleep', '30'], { stdio: ['ignore', 'ignore', 'ignore'] });
  try {
    const report = await reapOrphans({ termMs: 10, killMs: 10 });
    expect(report.subreaper).toBe(false);
    expect(report.gap).toMatch(/not (found|tracked)/);
    expect(bystander.exitCode).toBeNull();
  } finally {
    bystander.kill('SIGKILL');
    await bystander.exited;
  }
});

test('two sweeps merge into one report, counts added by name', () => {
  const a = { subreaper: true, killed: [{ name: 'sleep', count: 1 }], survivors: [] };
  const b = { subreaper: true, killed: [{ name: 'bun', count: 2 }, { name: 'sleep', count: 1 }], survivors: [{ name: 'sh', count: 1 }] };
  expect(mergeReports(a, b)).toEqual({ subreaper: true, killed: [{ name: 'bun', count: 2 }, { name: 'sleep', count: 2 }], survivors: [{ name: 'sh', count: 1 }] });
});
