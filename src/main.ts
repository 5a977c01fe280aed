/**
 * The program entry: the only file that touches the real process (argv, env,
 * streams, signals, exit code). Everything else takes an `Io`. Re-invoked
 * with `GUARD_ARG` it is caplab's guard process instead (platform/guard.ts),
 * and then loads nothing of the CLI (test/module-graph.test.ts). An error
 * nothing caught ends the CLI through `lastResort`: exit 70, one line.
 */
import type { Io } from './cli/index.ts';
import { GUARD_ARG } from './platform/guard-protocol.ts';

const argv = process.argv.slice(2);
/** What the last resort runs first: the cleanups commands registered (platform's, once it is loaded). */
let cleanUp: () => void = () => undefined;
if (argv[0] === GUARD_ARG) await guard();
else await program();

/** The guard: in its own session already; a signal meant for caplab must not end it either, so they are ignored. */
async function guard(): Promise<void> {
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(name, () => undefined);
  await (await import('./platform/guard-process.ts')).runGuard(Bun.stdin.stream());
}

/**
 * The last resort, for an error nothing caught (a bug: expected failures are
 * values): runs the cleanups registered — a server's group killed, probe's
 * temp cwd removed; the guard stays the backstop — then writes one line,
 * no stack, and exits 70 at once, before anything else can run or print.
 */
function lastResort(error: unknown, exitCode: number, inert: (text: string) => string): never {
  cleanUp();
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = inert(what.split('\n')[0]!.slice(0, 200));
  // Written synchronously, so it is out before the exit; taken here, not imported: `--version` never loads node:fs.
  process.getBuiltinModule('node:fs').writeSync(2, `caplab: internal error (exit ${exitCode}): ${line}\n`);
  process.exit(exitCode);
}

async function program(): Promise<void> {
  const { cli, EXIT, exitAfterOutput, fileSink, guardsProcesses, inert, outputWriter, stopsOnSignal, writeOrder } = await import('./cli/index.ts');
  const fatal = (error: unknown) => lastResort(error, EXIT.internal, inert);
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  const interrupt = new AbortController();
  const forceStop = new AbortController();
  // The binary starts with a reluctant JIT (scripts/build.ts): right for a run, not for a long `serve`
  // session, which gets the normal policy after its first second.
  if (argv[0] === 'serve') setTimeout(() => Bun.unsafe.setJITPolicy?.(1), 1000).unref();
  if (guardsProcesses(argv)) {
    // Imported here: `--version`, `verify` and `serve` then never load bun:ffi or node:fs for it.
    const platform = await import('./platform/index.ts');
    // Escaped descendants (setsid) are reparented here, so a run's close can find and kill them (Linux).
    platform.becomeSubreaper();
    cleanUp = platform.runLastResort;
    // Children and probe's temp folder die with caplab even if it is SIGKILLed (started with the first child).
    platform.enableGuard(import.meta.path);
    // The first SIGINT/SIGTERM stops the work in order; later ones are ignored so the teardown
    // (bounded by its graces) completes and the record is sealed.
    for (const name of ['SIGINT', 'SIGTERM'] as const) process.on(name, () => interrupt.abort(name));
  } else if (stopsOnSignal(argv)) {
    // `serve --http` starts no process: no guard, no subreaper; a signal stops it cleanly, and a second one
    // during that stop ends its grace at once (the exit code stays the first one's).
    for (const name of ['SIGINT', 'SIGTERM'] as const) process.on(name, () => (interrupt.signal.aborted ? forceStop.abort(name) : interrupt.abort(name)));
  }
  // Bun's own files, not process.stdout/stdin: Node's stream module is never loaded (issue 15: it cost
  // every start about 20 ms of cpu, and serve twice that). One write chain for both, so `2>&1` keeps
  // program order.
  const order = writeOrder();
  const stdout = outputWriter(fileSink(Bun.stdout, Bun.write, order));
  const stderr = outputWriter(fileSink(Bun.stderr, Bun.write, order));
  let streams: Io['streams'];
  const code = await cli(argv, {
    stdout: stdout.write,
    stderr: stderr.write,
    env: process.env,
    cwd: process.cwd(),
    get isTTY() {
      return stdoutIsTTY();
    },
    // Made on first use: only `serve` reads stdin.
    get streams() {
      return (streams ??= { stdin: Bun.stdin.stream(), stdout: fileSink(Bun.stdout), stderr: fileSink(Bun.stderr) });
    },
    interrupt: interrupt.signal,
    forceStop: forceStop.signal,
  });
  // A closed pipe (`| head`) is not a failure; anything else that lost stdout is, and is said on stderr.
  const lost = await stdout.settled();
  if (lost) stderr.write(`caplab: could not write to stdout: ${lost.message}\n`);
  await stderr.settled();
  process.exitCode = exitAfterOutput(code, lost);
}

/** Whether fd 1 is a terminal, asked without loading Node's tty and stream modules (process.stdout would, ~20 ms). */
function stdoutIsTTY(): boolean {
  try {
    const tty = process.binding('tty_wrap') as { isTTY?: (fd: number) => boolean };
    if (typeof tty.isTTY === 'function') return tty.isTTY(1);
  } catch {
    // No such binding in this runtime: ask the stream.
  }
  return process.stdout.isTTY === true;
}
