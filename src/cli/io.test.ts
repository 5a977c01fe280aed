import { expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT, exitAfterOutput } from './exit.ts';
import { fileSink, outputWriter, paint, writeOrder } from './io.ts';
import { testIo } from './test-io.ts';

test('colour only on a TTY, and never with NO_COLOR set', () => {
  const tty = { ...testIo('/'), isTTY: true };
  expect(paint(tty).ok('x')).toBe('\x1b[32mx\x1b[0m');
  expect(paint({ ...tty, env: { NO_COLOR: '1' } }).ok('x')).toBe('x');
  expect(paint(testIo('/')).bad('x')).toBe('x');
});

/** A stream whose writes fail with `code` (or succeed when undefined), answering asynchronously like a pipe. */
function fakeStream(code: string | undefined) {
  const written: string[] = [];
  const listeners: ((error: Error) => void)[] = [];
  return {
    written,
    on: (_: 'error', listener: (error: Error) => void) => void listeners.push(listener),
    write(text: string, callback: (error?: Error | null) => void) {
      const error = code ? Object.assign(new Error(code), { code }) : undefined;
      if (!error) written.push(text);
      setTimeout(() => {
        callback(error ?? null);
        if (error) for (const listener of listeners) listener(error);
      }, 1);
    },
  };
}

test('a closed pipe (EPIPE) stops output quietly: not a failure, the exit code stands', async () => {
  const writer = outputWriter(fakeStream('EPIPE'));
  writer.write('a');
  writer.write('b');
  expect(await writer.settled()).toBeUndefined();
  expect(exitAfterOutput(EXIT.ok, undefined)).toBe(EXIT.ok);
});

test('any other write failure (ENOSPC) is kept and turns 0 or 1 into exit 3; usage and unknown codes are kept', async () => {
  const writer = outputWriter(fakeStream('ENOSPC'));
  writer.write('a');
  const lost = await writer.settled();
  expect((lost as NodeJS.ErrnoException | undefined)?.code).toBe('ENOSPC');
  expect([EXIT.ok, EXIT.failed, EXIT.usage, EXIT.unknown].map((code) => exitAfterOutput(code, lost))).toEqual([EXIT.io, EXIT.io, EXIT.usage, EXIT.unknown]);
  expect(EXIT.io).toBe(3);
});

test('a healthy stream gets every write, in order', async () => {
  const stream = fakeStream(undefined);
  const writer = outputWriter(stream);
  writer.write('a');
  writer.write('b');
  expect(await writer.settled()).toBeUndefined();
  expect(stream.written).toEqual(['a', 'b']);
});

test('fileSink: writes land in order even when an earlier one is slower; a failure reaches its callback and the error listeners', async () => {
  const landed: string[] = [];
  const file = Bun.file('/dev/null');
  let calls = 0;
  const sink = fileSink(file, async (_file, chunk) => {
    const text = typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
    // The first write takes longest: a sink that did not chain would land it last.
    await Bun.sleep(++calls === 1 ? 20 : 1);
    if (text === 'bad') throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
    landed.push(text);
    return text.length;
  });
  const heard: string[] = [];
  sink.on('error', (error) => heard.push((error as NodeJS.ErrnoException).code ?? '?'));
  const done = (label: string) => new Promise<string>((resolve) => sink.write(label, (error) => resolve(error ? `${label}:${(error as NodeJS.ErrnoException).code}` : label)));
  const answers = await Promise.all([done('a'), done('b'), done('bad'), done('c')]);
  expect(landed).toEqual(['a', 'b', 'c']);
  expect(answers).toEqual(['a', 'b', 'bad:ENOSPC', 'c']);
  expect(heard).toEqual(['ENOSPC']);
});

test('fileSinks sharing one write order land in program order across them (stdout and stderr into one file, 2>&1)', async () => {
  const landed: string[] = [];
  const order = writeOrder();
  const slowFirst = async (_file: Bun.BunFile, chunk: string | Uint8Array) => {
    // The first write is the slowest: a stderr line written after it must still land after it.
    await Bun.sleep(landed.length === 0 ? 20 : 1);
    landed.push(String(chunk));
    return 1;
  };
  const out = fileSink(Bun.file('/dev/null'), slowFirst, order);
  const err = fileSink(Bun.file('/dev/null'), slowFirst, order);
  const done = (sink: typeof out, label: string) => new Promise<void>((resolve) => sink.write(label, () => resolve()));
  await Promise.all([done(out, 'o1'), done(out, 'o2'), done(err, 'e1'), done(out, 'o3'), done(err, 'e2')]);
  expect(landed).toEqual(['o1', 'o2', 'e1', 'o3', 'e2']);
});

test.skipIf(!existsSync('/dev/full'))('caplab demo > /dev/full: a message on stderr and exit 3; the run itself still completes', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'caplab-full-'));
  try {
    const child = Bun.spawn([process.execPath, join(import.meta.dir, '../main.ts'), 'demo', '--transport', 'local', '--run-id', 'full'], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      stdin: 'ignore',
      stdout: Bun.file('/dev/full'),
      stderr: 'pipe',
    });
    const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    expect(stderr).toContain('could not write to stdout');
    expect(code).toBe(3);
    expect(existsSync(join(cwd, 'caplab-runs/full/ledger.head'))).toBe(true);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test('a reader that closes the pipe after the first line (| head -1): exit 0, no message, the run completes and is sealed', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'caplab-pipe-'));
  try {
    const entry = join(import.meta.dir, '../main.ts');
    const child = Bun.spawn(['sh', '-c', `{ "${process.execPath}" "${entry}" demo --transport local --run-id piped; echo $? >rc; } | head -1 >/dev/null`], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      stdin: 'ignore',
      stdout: 'ignore',
      stderr: 'pipe',
    });
    const [, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    expect(stderr).toBe('');
    expect(readFileSync(join(cwd, 'rc'), 'utf8').trim()).toBe('0');
    expect(existsSync(join(cwd, 'caplab-runs/piped/ledger.head'))).toBe(true);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test.if(process.platform === 'linux')('a closed stdout is /dev/null to Bun (README): `caplab demo >&-` exits as if output went there', async () => {
  const out = mkdtempSync(join(tmpdir(), 'caplab-closed-'));
  try {
    const main = join(import.meta.dir, '../main.ts');
    const script = `"$0" -e 'process.stderr.write(require("node:fs").readlinkSync("/proc/self/fd/1"))' >&- && "$0" "$1" demo --transport local --out "$2/run" >&-`;
    const child = Bun.spawn(['sh', '-c', script, process.execPath, main, out], { stdout: 'pipe', stderr: 'pipe', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
    const [code, err] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    expect(err).toStartWith('/dev/null');
    expect(code).toBe(EXIT.ok);
    expect(existsSync(join(out, 'run/ledger.head'))).toBe(true);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
