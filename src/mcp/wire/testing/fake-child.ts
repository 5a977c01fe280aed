/**
 * TEST ONLY — an in-memory `ChildProcess`: byte streams the test writes,
 * stdin lines it reads back, an exit it triggers. No process: for the stdio
 * transport's own logic (framing, ends, close order).
 */
import { fail, ok, type Failure } from '../../../contract/index.ts';
import type { ChildProcess } from '../child.ts';

export interface FakeChild {
  readonly child: ChildProcess;
  /** Server stdout bytes (text is UTF-8 encoded). */
  stdout(bytes: string | Uint8Array): void;
  endStdout(): void;
  stderr(text: string): void;
  endStderr(): void;
  exit(code: number | null): void;
  /** Every stdin write so far, decoded. */
  readonly written: string[];
  /** Whether stdin was ended (the polite stop). */
  readonly inputEnded: () => boolean;
  /** Make every later stdin write fail, as after the server closed its end of the pipe. */
  breakStdin(): void;
  /** Stop taking stdin: later writes count as unsent, as when the pipe's buffer is full. */
  stallStdin(): void;
  /** A write fails after it returned (Bun rejects the flush of a broken pipe later). */
  loseStdin(why: string): void;
}

/** `onEndInput` runs when the transport ends stdin: a well-behaved server exits then. */
export function fakeChild(onEndInput: (fake: FakeChild) => void = (fake) => fake.exit(0)): FakeChild {
  const encoder = new TextEncoder();
  let out!: ReadableStreamDefaultController<Uint8Array>;
  let err!: ReadableStreamDefaultController<Uint8Array>;
  let resolveExit!: (code: number | null) => void;
  let exited = false;
  let inputEnded = false;
  let broken = false;
  let stalled = false;
  let unsent = 0;
  let reportLost!: (failure: Failure) => void;
  const inputLost = new Promise<Failure>((resolve) => (reportLost = resolve));
  const written: string[] = [];
  const exitedPromise = new Promise<number | null>((resolve) => (resolveExit = resolve));
  const fake: FakeChild = {
    child: {
      pid: 0,
      stdout: new ReadableStream({ start: (c) => void (out = c) }),
      stderr: new ReadableStream({ start: (c) => void (err = c) }),
      write(bytes) {
        if (broken) return fail('closed', 'connection_lost', 'cannot write to server stdin: broken pipe');
        if (stalled) unsent += bytes.byteLength;
        else written.push(new TextDecoder().decode(bytes));
        return ok(undefined);
      },
      unsentBytes: () => unsent,
      inputLost,
      endInput() {
        if (inputEnded) return;
        inputEnded = true;
        onEndInput(fake);
      },
      exited: exitedPromise,
      hasExited: () => exited,
      signal: () => {},
      members: () => [],
    },
    stdout: (bytes) => out.enqueue(typeof bytes === 'string' ? encoder.encode(bytes) : bytes),
    endStdout: () => out.close(),
    stderr: (text) => err.enqueue(encoder.encode(text)),
    endStderr: () => err.close(),
    exit(code) {
      if (exited) return;
      exited = true;
      resolveExit(code);
    },
    written,
    inputEnded: () => inputEnded,
    breakStdin: () => void (broken = true),
    stallStdin: () => void (stalled = true),
    loseStdin: (why) => reportLost(fail('closed', 'connection_lost', `server stopped reading: ${why}`)),
  };
  return fake;
}
