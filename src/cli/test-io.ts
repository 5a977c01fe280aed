/** An in-memory Io for tests: collects what the CLI writes. Test code only. */
import type { Io } from './io.ts';

export function testIo(cwd: string, env: Record<string, string | undefined> = {}): Io & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    env,
    cwd,
    isTTY: false,
    out: () => out,
    err: () => err,
  };
}
