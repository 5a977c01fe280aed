/**
 * TEST ONLY — preloaded into the real program (`bun --preload`) to give it a
 * bug: once the test server it spawned (`hostile.ts`) has announced itself in
 * the `HOSTILE_PIDS` file, an error nothing catches is raised — thrown
 * (`FAULT=throw`) or a rejected promise nobody handles (`FAULT=reject`).
 * The guard process is not started
 * (its spawn is refused, which caplab survives), so whatever ends up stopped
 * or removed was stopped and removed by caplab itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { GUARD_ARG } from '../src/platform/guard-protocol.ts';

const spawn = Bun.spawn;
const commandOf = (args: unknown[]): readonly string[] => {
  const first = args[0] as readonly string[] | { cmd: readonly string[] };
  return Array.isArray(first) ? first : (first as { cmd: readonly string[] }).cmd;
};

Bun.spawn = ((...args: unknown[]) => {
  const command = commandOf(args);
  if (command.includes(GUARD_ARG)) throw new Error('fault-preload: no guard in this test');
  const child = (spawn as (...a: unknown[]) => Bun.Subprocess)(...args);
  const pids = process.env['HOSTILE_PIDS'];
  if (pids && command.some((arg) => arg.endsWith('/hostile.ts'))) {
    // Polled: the server is running, with its signal handlers set, once its pid is in the file.
    const poll = setInterval(() => {
      if (!existsSync(pids) || !readFileSync(pids, 'utf8').split('\n').includes(String(child.pid))) return;
      clearInterval(poll);
      if (process.env['FAULT'] === 'reject') void Promise.reject(new Error('injected fault'));
      else throw new RangeError('injected fault');
    }, 1);
  }
  return child;
}) as typeof Bun.spawn;
