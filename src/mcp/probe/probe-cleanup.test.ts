/**
 * probe releases what it made on every exit path, an error thrown through it
 * included: the server's process group is stopped and the temp cwd removed
 * before the error reaches the caller (no guard process runs in tests).
 */
import { expect, onTestFinished, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scratchDir } from '../../../test/scratch.ts';
import { until } from '../../../test/until.ts';
import type { CallRequest } from './probe-calls.ts';
import { probe } from './probe.ts';
import { isRunning } from '../wire/testing/processes.ts';

const HOSTILE = join(import.meta.dir, './testing/hostile.ts');
const FAST = { startupMs: 5_000, requestMs: 5_000, exitMs: 300, termMs: 300, killMs: 2_000 };
const probeFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('caplab-probe-'));

test('an error thrown inside the profile: the server group stopped, the temp cwd removed, the error passed on', async () => {
  const pids = join(scratchDir(), 'pids');
  // The profile reads the calls after listing: this list throws there, as a bug would.
  const calls = Object.assign([] as CallRequest[], { [Symbol.iterator]: () => { throw new RangeError('injected fault'); } });
  const probed = probe([process.execPath, HOSTILE, 'fetch_failed'], { env: { HOSTILE_PIDS: pids }, calls, timeouts: FAST });
  await expect(probed).rejects.toThrow('injected fault');
  const [pid] = existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n').map(Number) : [];
  expect(pid).toBeNumber();
  // Left running only if probe failed to stop it: killed then, even past the test's timeout.
  onTestFinished(() => void (isRunning(pid!) && process.kill(pid!, 'SIGKILL')));
  await until(() => !isRunning(pid!), 2_000);
  const alive = isRunning(pid!);
  expect({ alive, folders: probeFolders() }).toEqual({ alive: false, folders: [] });
});
