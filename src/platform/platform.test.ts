import { afterEach, expect, test } from 'bun:test';
import { becomeSubreaper, currentPlatform, gapOn, livingMembers, osOf, platformFor, reapOrphans, signalGroup, usePlatform, waitGroupGone, type OsName, type TeardownSignal } from './index.ts';

const WINDOWS_GAP = 'descendants of a server or hook are not tracked or killed on Windows';

/** A platform of `os` whose kill records each call and then does what `answer` says (throw an errno code, or pass to the real kill). */
function recording(os: OsName, answer: (pid: number, signal: TeardownSignal) => string | 'real' | undefined = () => undefined) {
  const calls: [number, TeardownSignal][] = [];
  const platform = platformFor(os, {
    kill: (pid, signal) => {
      calls.push([pid, signal]);
      const code = answer(pid, signal);
      if (code === 'real') process.kill(pid, signal);
      else if (code !== undefined) throw Object.assign(new Error(code), { code });
    },
  });
  return { platform, calls };
}

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

test('the platform is made from process.platform on first use: linux and win32 as named, another POSIX system as darwin', () => {
  expect(currentPlatform().os).toBe(osOf(process.platform));
  expect(currentPlatform()).toBe(currentPlatform());
  expect([osOf('linux'), osOf('win32'), osOf('darwin'), osOf('freebsd')]).toEqual(['linux', 'win32', 'darwin', 'darwin']);
  const table = (['linux', 'darwin', 'win32'] as const).map((os) => {
    const { groups, procfs, subreaper, folderSync } = platformFor(os);
    return { os, groups, procfs, subreaper, folderSync };
  });
  expect(table).toEqual([
    { os: 'linux', groups: true, procfs: true, subreaper: true, folderSync: true },
    { os: 'darwin', groups: true, procfs: false, subreaper: false, folderSync: true },
    { os: 'win32', groups: false, procfs: false, subreaper: false, folderSync: false },
  ]);
});

test('on POSIX teardown signals the group (a negative pid); on win32 the child\'s own pid, never a negative one', () => {
  for (const os of ['linux', 'darwin'] as const) {
    const { platform, calls } = recording(os);
    signalGroup(4242, 'SIGTERM', platform);
    signalGroup(4242, 'SIGKILL', platform);
    expect({ os, calls }).toEqual({ os, calls: [[-4242, 'SIGTERM'], [-4242, 'SIGKILL']] });
  }
  const win = recording('win32');
  signalGroup(4242, 'SIGTERM', win.platform);
  signalGroup(4242, 'SIGKILL', win.platform);
  expect(livingMembers(4242, win.platform)).toEqual([4242]);
  expect(win.calls).toEqual([[4242, 'SIGTERM'], [4242, 'SIGKILL'], [4242, 0]]);
});

test('a target already gone (ESRCH) is no error on any platform; any other error is thrown', () => {
  for (const os of ['linux', 'darwin', 'win32'] as const) {
    const gone = recording(os, () => 'ESRCH');
    expect(() => signalGroup(7, 'SIGKILL', gone.platform)).not.toThrow();
    expect(livingMembers(7, gone.platform)).toEqual([]);
    const denied = recording(os, (_pid, signal) => (signal === 0 ? undefined : 'EPERM'));
    expect(() => signalGroup(7, 'SIGKILL', denied.platform)).toThrow('EPERM');
  }
});

test('injected win32 stops a real child by its own pid: SIGTERM, then membership polled until it is gone, no negative pid sent', async () => {
  const child = Bun.spawn(['sleep', '30'], { stdio: ['ignore', 'ignore', 'ignore'], detached: true });
  const win = recording('win32', () => 'real');
  try {
    expect(livingMembers(child.pid, win.platform)).toEqual([child.pid]);
    signalGroup(child.pid, 'SIGTERM', win.platform);
    await child.exited;
    expect(await waitGroupGone(child.pid, 5_000, 5, win.platform)).toEqual([]);
    expect(child.signalCode).toBe('SIGTERM');
    expect(win.calls.filter(([pid]) => pid !== child.pid)).toEqual([]);
  } finally {
    child.kill('SIGKILL');
  }
});

test('darwin without /proc counts the group by its existence (the leader stands for it)', () => {
  const { platform, calls } = recording('darwin');
  expect(livingMembers(99, platform)).toEqual([99]);
  expect(calls).toEqual([[-99, 0]]);
});

test('the gap each platform states: Linux (not a subreaper here) as before, darwin names itself, win32 says no descendant is tracked or killed and that hooks need sh', async () => {
  expect(gapOn('linux')).toBe('this process is not a child subreaper (caplab becomes one only as a program, in main.ts): processes that leave their process group (setsid) are not found at close');
  expect(gapOn('darwin')).toBe('no child subreaper on darwin: processes that leave their process group (setsid) are not found or killed at close');
  expect(gapOn('win32')).toContain(WINDOWS_GAP);
  expect(gapOn('win32')).toContain('a command hook needs sh on PATH');
  const before = await reapOrphans({ termMs: 10, killMs: 10 });
  restore = usePlatform(recording('win32').platform);
  // Injected win32: becoming a subreaper is not even tried, and the sweep states the Windows gap.
  expect(becomeSubreaper()).toEqual({ enabled: false, gap: gapOn('win32') });
  expect(await reapOrphans({ termMs: 10, killMs: 10 })).toEqual({ subreaper: false, killed: [], survivors: [], gap: gapOn('win32') });
  restore();
  restore = undefined;
  expect(await reapOrphans({ termMs: 10, killMs: 10 })).toEqual(before);
  expect(before.gap).not.toContain('Windows');
});
