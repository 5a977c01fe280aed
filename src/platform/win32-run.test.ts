/**
 * A whole demo over MCP with win32 injected (platform.ts `usePlatform`): the
 * teardown of the real fixture server runs with Windows' rules on this host.
 */
import { afterEach, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../cli/index.ts';
import { testIo } from '../cli/test-io.ts';
import { gapOn, platformFor, usePlatform, type TeardownSignal } from './index.ts';
import { scratchDir } from '../../test/scratch.ts';

let restore: (() => void) | undefined;
afterEach(() => restore?.());

test('injected win32: the demo\'s server is signalled by its own pid only, and run_end and the close report state the Windows gap', async () => {
  const sent: [number, TeardownSignal][] = [];
  restore = usePlatform(platformFor('win32', { kill: (pid, signal) => {
    sent.push([pid, signal]);
    process.kill(pid, signal);
  } }));
  const io = testIo(scratchDir('caplab-win32-'));
  expect(await cli(['demo', '--json', '--run-id', 'w'], io)).toBe(0);
  const doc = JSON.parse(io.out());
  const events = readFileSync(join(doc.run_dir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const end = events.find((e) => e.type === 'run_end');
  expect(end.orphans).toEqual({ subreaper: false, killed: [], survivors: [], gap: gapOn('win32') });
  expect(end.transport_close.orphans).toEqual({ subreaper: false, killed: [], survivors: [], gap: gapOn('win32') });
  expect(end.orphans.gap).toContain('descendants of a server or hook are not tracked or killed on Windows');
  // The server's membership was asked of its own pid: the teardown ran, on no negative pid.
  expect(sent.length).toBeGreaterThan(0);
  expect(sent.filter(([pid]) => pid <= 0)).toEqual([]);
});
