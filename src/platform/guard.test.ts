/**
 * The guard (guard.ts, guard-process.ts): the protocol, the client's
 * registry with a fake link, the guard's program over an in-memory stream
 * with real process groups and folders, and the real guard process. caplab
 * itself SIGKILLed is src/cli/sigkill.test.ts.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { decodeGuardMessage, encodeGuardMessage, GUARD_ARG, type GuardMessage } from './guard-protocol.ts';
import { runGuard } from './guard-process.ts';
import { guardCommand, ProcessGuard, spawnGuard, type GuardLink } from './guard.ts';
import { isAlive, procStat } from './proc.ts';
import { killAllWith, livingWith, waitNoneWith } from './testing/find.ts';

const main = join(import.meta.dir, '../main.ts');
const markers: string[] = [];
const guards: GuardLink[] = [];

/** A sleep duration no other process uses, to find exactly this test's processes. */
function marker(): string {
  const m = `${800 + markers.length}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
  markers.push(m);
  return m;
}

afterEach(() => {
  for (const link of guards.splice(0)) link.close();
  for (const m of markers.splice(0)) killAllWith(m);
});

/** A process group like a hook's: `sh` leading two sleeps, in its own session (pgid = pid). */
async function sleepingGroup(m: string): Promise<number> {
  const child = Bun.spawn(['sh', '-c', `sleep ${m} & sleep ${m}`], { stdio: ['ignore', 'ignore', 'ignore'], detached: true });
  const deadline = performance.now() + 5000;
  while (livingWith(m).length < 2 && performance.now() < deadline) await Bun.sleep(5);
  expect(livingWith(m).length).toBe(2);
  return child.pid;
}

async function until(done: () => boolean, withinMs = 5000): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  while (!done() && performance.now() < deadline) await Bun.sleep(10);
  return done();
}

describe('the protocol', () => {
  test('messages round-trip; a pgid of 0, 1, negative or fractional, a relative path or `/`, and garbage are refused', () => {
    const messages: GuardMessage[] = [
      { kind: 'group', add: true, pgid: 4242 },
      { kind: 'group', add: false, pgid: 2 },
      { kind: 'folder', add: true, path: '/tmp/caplab-probe-x\nwith a newline ü' },
    ];
    for (const message of messages) {
      const line = encodeGuardMessage(message);
      expect(line.endsWith('\n') && !line.slice(0, -1).includes('\n')).toBe(true);
      expect(decodeGuardMessage(line.slice(0, -1))).toEqual(message);
    }
    const refused = [
      { kind: 'group', add: true, pgid: 1 },
      { kind: 'group', add: true, pgid: 0 },
      { kind: 'group', add: true, pgid: -7 },
      { kind: 'group', add: true, pgid: 2.5 },
      { kind: 'group', add: true, pgid: '42' },
      { kind: 'group', pgid: 42 },
      { kind: 'folder', add: true, path: 'relative' },
      { kind: 'folder', add: true, path: '/' },
      { kind: 'process', add: true, pgid: 42 },
    ];
    for (const message of refused) expect({ message, decoded: decodeGuardMessage(JSON.stringify(message)) }).toEqual({ message, decoded: undefined });
    for (const line of ['', 'null', '42', '{', '[]']) expect(decodeGuardMessage(line)).toBeUndefined();
  });
});

describe('the client (a fake link)', () => {
  function fake() {
    const sent: string[] = [];
    let starts = 0;
    const guard = new ProcessGuard(() => (starts++, { pid: 99, send: (line) => void sent.push(line), close: () => undefined }));
    return { guard, sent, starts: () => starts };
  }

  test('the guard starts with the first registration, once; each release is sent once, after its registration', () => {
    const { guard, sent, starts } = fake();
    expect([starts(), guard.pid]).toEqual([0, undefined]);
    const releaseGroup = guard.group(4242);
    const releaseFolder = guard.folder('/tmp/caplab-probe-x');
    releaseGroup();
    releaseGroup();
    releaseFolder();
    expect([starts(), guard.pid]).toEqual([1, 99]);
    expect(sent.map((line) => decodeGuardMessage(line.trimEnd()))).toEqual([
      { kind: 'group', add: true, pgid: 4242 },
      { kind: 'folder', add: true, path: '/tmp/caplab-probe-x' },
      { kind: 'group', add: false, pgid: 4242 },
      { kind: 'folder', add: false, path: '/tmp/caplab-probe-x' },
    ]);
  });

  test('group 1 (kill(-1): every process) and 0 are never registered; with no guard (not enabled, Windows) a registration is a no-op', () => {
    const { guard, sent } = fake();
    guard.group(1)();
    guard.group(0)();
    expect(sent).toEqual([]);
    const none = new ProcessGuard(() => undefined);
    expect(none.start()).toBe(false);
    none.folder('/tmp/x')();
    expect(none.pid).toBeUndefined();
  });

  test('the command: compiled, the executable itself with the hidden argument; in development, Bun with the entry', () => {
    expect(guardCommand('/$bunfs/root/caplab', '/usr/local/bin/caplab')).toEqual(['/usr/local/bin/caplab', GUARD_ARG]);
    expect(guardCommand('/repo/src/main.ts', '/usr/bin/bun')).toEqual(['/usr/bin/bun', '/repo/src/main.ts', GUARD_ARG]);
  });
});

describe('the guard program (an in-memory pipe)', () => {
  /** A stream the test writes lines into and ends, as caplab's end of the pipe. */
  function pipe() {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const bytes = (text: string) => controller.enqueue(new TextEncoder().encode(text));
    return { stream, bytes, send: (m: GuardMessage) => bytes(encodeGuardMessage(m)), end: () => controller.close() };
  }

  test('at EOF the guard SIGKILLs each registered group (a forked background child too) and removes each registered folder; released ones stay', async () => {
    const [killed, kept] = [marker(), marker()];
    const [killedGroup, keptGroup] = [await sleepingGroup(killed), await sleepingGroup(kept)];
    const dir = scratchDir('caplab-guard-');
    const [doomed, spared] = [join(dir, 'doomed'), join(dir, 'spared')];
    for (const folder of [doomed, spared]) {
      mkdirSync(join(folder, 'deep'), { recursive: true });
      writeFileSync(join(folder, 'deep', 'file'), 'x');
    }
    const input = pipe();
    const running = runGuard(input.stream);
    input.send({ kind: 'group', add: true, pgid: killedGroup });
    input.send({ kind: 'group', add: true, pgid: keptGroup });
    input.send({ kind: 'group', add: false, pgid: keptGroup });
    // A message split across chunks is read whole.
    const split = encodeGuardMessage({ kind: 'folder', add: true, path: doomed });
    input.bytes(split.slice(0, 9));
    input.bytes(split.slice(9));
    input.send({ kind: 'folder', add: true, path: spared });
    input.send({ kind: 'folder', add: false, path: spared });
    input.end();
    await running;
    expect(await waitNoneWith(killed)).toEqual([]);
    expect(existsSync(doomed)).toBe(false);
    expect(livingWith(kept).length).toBe(2);
    expect(readdirSync(spared)).toEqual(['deep']);
  });

  test('a folder replaced by a symlink is unlinked, its target kept; an unterminated last line and garbage are ignored', async () => {
    const dir = scratchDir('caplab-guard-');
    const target = join(dir, 'target');
    mkdirSync(target);
    writeFileSync(join(target, 'keep'), 'x');
    const link = join(dir, 'caplab-probe-link');
    symlinkSync(target, link);
    const unterminated = join(dir, 'unterminated');
    mkdirSync(unterminated);
    const input = pipe();
    const running = runGuard(input.stream);
    input.bytes('garbage\n{"kind":"group","add":true,"pgid":1}\n');
    input.send({ kind: 'folder', add: true, path: link });
    input.bytes(encodeGuardMessage({ kind: 'folder', add: true, path: unterminated }).trimEnd());
    input.end();
    await running;
    expect([existsSync(link), readdirSync(target), existsSync(unterminated)]).toEqual([false, ['keep'], true]);
  });
});

describe('the guard process', () => {
  /** Starts a real guard and waits for its exec (its session, cwd and fds are set before it): never one look right after a spawn. */
  async function startGuard(): Promise<GuardLink> {
    const link = spawnGuard(guardCommand(main));
    expect(link).toBeDefined();
    guards.push(link!);
    const execed = () => {
      try {
        return readFileSync(`/proc/${link!.pid}/cmdline`, 'utf8').split('\0').includes(GUARD_ARG);
      } catch {
        return false;
      }
    };
    expect(await until(execed)).toBe(true);
    return link!;
  }

  /** Signals with a handler installed, from /proc/PID/status's SigCgt mask. */
  function caught(pid: number): number[] {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('SigCgt:')) ?? 'SigCgt: 0';
    const mask = BigInt(`0x${line.split(/\s+/)[1]}`);
    return [1, 2, 15].filter((signal) => (mask >> BigInt(signal - 1)) & 1n);
  }

  test('the guard runs in its own session, cwd /, stdin its pipe (held by no other process), stdout and stderr /dev/null', async () => {
    const { pid } = await startGuard();
    const stat = procStat(pid);
    expect([stat?.session, stat?.pgrp]).toEqual([pid, pid]);
    expect(readlinkSync(`/proc/${pid}/cwd`)).toBe('/');
    const fd = (n: number) => readlinkSync(`/proc/${pid}/fd/${n}`);
    expect([fd(1), fd(2)]).toEqual(['/dev/null', '/dev/null']);
    const readEnd = fd(0);
    expect(readEnd).toMatch(/^(socket|pipe):\[\d+\]$/);
    const holders = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try {
        return readdirSync(`/proc/${p}/fd`).some((n) => readlinkSync(`/proc/${p}/fd/${n}`) === readEnd);
      } catch {
        return false;
      }
    });
    expect(holders).toEqual([String(pid)]);
  });

  test('SIGINT, SIGTERM and SIGHUP sent to the guard do not end it: at EOF it still kills the registered group', async () => {
    const link = await startGuard();
    // Its handlers are installed while it starts up: wait for them, then signal.
    expect(await until(() => caught(link.pid).length === 3)).toBe(true);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.kill(link.pid, signal);
    const m = marker();
    link.send(encodeGuardMessage({ kind: 'group', add: true, pgid: await sleepingGroup(m) }));
    link.close();
    expect(await waitNoneWith(m)).toEqual([]);
    expect(await until(() => !isAlive(procStat(link.pid)))).toBe(true);
  });

  test('with nothing registered the guard exits at EOF', async () => {
    const link = await startGuard();
    link.close();
    expect(await until(() => !isAlive(procStat(link.pid)))).toBe(true);
  });
});
