import { LIMITS } from '../../contract/index.ts';
import { processGuard, signalGroup, trackChild } from '../../platform/index.ts';
import type { Hook, HookEvent, HookInput, HookResult } from '../hook.ts';
import { redactCut, redactorFor, type Redactor } from '../../contract/index.ts';
import { captureBounded, TRUNCATION_MARK } from './capture.ts';
import { hookEnv, type EnvSource } from './env.ts';
import { interpretHook } from './protocol.ts';

/** One command hook as a settings file states it. */
export interface CommandHookSpec {
  readonly event: HookEvent;
  readonly matcher: string;
  /** Run with `sh -c`, in `options.cwd`. */
  readonly command: string;
  /** Seconds; caplab's default is 60 (`DEFAULT_HOOK_TIMEOUT_SEC`), Claude Code's 600. */
  readonly timeoutSec?: number;
}

/** The child process surface a command hook needs (Bun's `Subprocess` has it). */
export interface HookProcess {
  readonly pid: number;
  readonly stdin: { write(data: Uint8Array): unknown; end(): unknown };
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly exited: Promise<number>;
}

/** Starts `argv` in its own process group with exactly `env`. May throw if it cannot start. */
export type SpawnHook = (argv: readonly string[], options: { readonly cwd: string; readonly env: Record<string, string> }) => HookProcess;

export interface CommandHookOptions {
  /** Working directory of the hook process (for settings hooks: the settings' base dir). */
  readonly cwd: string;
  /** `CLAUDE_PROJECT_DIR` for the hook; defaults to `cwd`. */
  readonly projectDir?: string;
  /** Where allowlisted variables are read from; defaults to `process.env`. Never passed whole. */
  readonly env?: EnvSource;
  readonly spawn?: SpawnHook;
  /** Bytes kept of each of stdout and stderr; default `LIMITS.hookOutputBytes`. The rest is read and dropped. */
  readonly captureLimit?: number;
  /** How long to keep reading pipes after the hook ended (an escaped survivor holding them); default 1000 ms. */
  readonly drainGraceMs?: number;
}

/** caplab's default command hook timeout, in seconds (Claude Code's is 600). */
export const DEFAULT_HOOK_TIMEOUT_SEC = 60;

/** How long past its own kill and pipe drain the engine waits for a command hook before abandoning it. */
const ENGINE_BACKSTOP_MS = 5_000;

/**
 * Spawns with Bun: `detached` gives the hook its own session and process
 * group. Registered as caplab's own child while it runs, so the sweep for
 * escaped processes never takes it for one, and its group with caplab's guard
 * until the hook exits and the rest of its group is sent SIGKILL.
 */
export const bunSpawnHook: SpawnHook = function bunSpawnHook(argv, options) {
  const guard = processGuard();
  guard.start();
  const child = Bun.spawn([...argv], {
    cwd: options.cwd,
    env: options.env,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    detached: true,
  });
  trackChild(child.pid, child.exited);
  const unguard = guard.group(child.pid);
  // The group ends with the hook (runWith kills it too): killed first, then released.
  const exited = child.exited.then((code) => {
    signalGroup(child.pid, 'SIGKILL');
    unguard();
    return code;
  });
  return { pid: child.pid, stdin: child.stdin, stdout: child.stdout, stderr: child.stderr, exited };
};

/** Writes the input JSON and closes stdin; a hook that never reads it is fine. */
async function feed(child: HookProcess, input: HookInput): Promise<void> {
  try {
    await child.stdin.write(new TextEncoder().encode(`${JSON.stringify(input)}\n`));
    await child.stdin.end();
  } catch {
    // EPIPE: the hook exited or closed stdin without reading.
  }
}

/** A stop signal for pipe reads that fires `graceMs` after `after`; clearable so no timer outlives the run. */
function graceAfter(after: Promise<unknown>, graceMs: number): { readonly stop: Promise<void>; readonly clear: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cleared = false;
  const stop = new Promise<void>((resolve) => {
    void after.then(() => {
      if (!cleared) timer = setTimeout(resolve, graceMs);
    });
  });
  return { stop, clear: () => ((cleared = true), clearTimeout(timer)) };
}

/**
 * What the hook said, as recorded and shown: every text field with the values
 * of the hook's environment redacted. The decision itself (permission,
 * updatedInput) was read from the raw output and is kept as it is.
 */
function redacted(result: HookResult, redactor: Redactor): HookResult {
  // A field cut at the capture limit may end in half a value: redactCut drops that edge too.
  const clean = (text: string) =>
    text.endsWith(TRUNCATION_MARK) ? `${redactCut(redactor, text.slice(0, -TRUNCATION_MARK.length), 'end')}${TRUNCATION_MARK}` : redactor.redact(text);
  const { stdout, stderr, block, reason, note } = result;
  return {
    ...result,
    ...(stdout !== undefined ? { stdout: clean(stdout) } : {}),
    ...(stderr !== undefined ? { stderr: clean(stderr) } : {}),
    ...(block !== undefined ? { block: clean(block) } : {}),
    ...(reason !== undefined ? { reason: clean(reason) } : {}),
    ...(note !== undefined ? { note: clean(note) } : {}),
  };
}

/** Runs one command hook to its end (exit, timeout or abort) and reads what it said, redacted. */
async function runCommand(spec: CommandHookSpec, options: CommandHookOptions, input: HookInput, signal: AbortSignal): Promise<HookResult> {
  const env = hookEnv(options.env ?? process.env, options.projectDir ?? options.cwd);
  return redacted(await runWith(env, spec, options, input, signal), redactorFor(env));
}

async function runWith(env: Record<string, string>, spec: CommandHookSpec, options: CommandHookOptions, input: HookInput, signal: AbortSignal): Promise<HookResult> {
  const spawn = options.spawn ?? bunSpawnHook;
  const base = { hook: spec.command, event: spec.event, stdout: '', stderr: '' };
  if (signal.aborted) return interpretHook({ ...base, exitCode: undefined, note: 'aborted before start' });
  let child: HookProcess;
  try {
    child = spawn(['sh', '-c', spec.command], { cwd: options.cwd, env });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return interpretHook({ ...base, exitCode: undefined, note: `could not start: ${detail}; non-blocking` });
  }
  let ended: 'timeout' | 'aborted' | undefined;
  const end = (why: 'timeout' | 'aborted'): void => {
    ended ??= why;
    signalGroup(child.pid, 'SIGKILL');
  };
  const timer = setTimeout(() => end('timeout'), (spec.timeoutSec ?? DEFAULT_HOOK_TIMEOUT_SEC) * 1000);
  const onAbort = (): void => end('aborted');
  signal.addEventListener('abort', onAbort, { once: true });
  const exited = child.exited.then((code) => {
    clearTimeout(timer);
    // The hook's group ends with the hook: no background child outlives it.
    signalGroup(child.pid, 'SIGKILL');
    return code;
  });
  const grace = graceAfter(exited, options.drainGraceMs ?? 1000);
  const limit = options.captureLimit ?? LIMITS.hookOutputBytes;
  void feed(child, input);
  const [code, stdout, stderr] = await Promise.all([
    exited,
    captureBounded(child.stdout, limit, grace.stop),
    captureBounded(child.stderr, limit, grace.stop),
  ]);
  grace.clear();
  signal.removeEventListener('abort', onAbort);
  const done = { ...base, stdout: stdout.text, stderr: stderr.text };
  if (ended === 'timeout') {
    const seconds = spec.timeoutSec ?? DEFAULT_HOOK_TIMEOUT_SEC;
    return interpretHook({ ...done, exitCode: undefined, timedOut: true, note: `timed out after ${seconds}s; process group killed; non-blocking` });
  }
  if (ended === 'aborted') return interpretHook({ ...done, exitCode: undefined, note: 'aborted; process group killed' });
  return interpretHook({ ...done, exitCode: code });
}

/**
 * Creates a hook that runs a shell command speaking Claude Code's hook
 * protocol: the `HookInput` JSON on stdin, an answer by exit code and stdout.
 * The command runs via `sh -c` in its own process group, with an allowlisted
 * environment, and is killed with its whole group on timeout or abort.
 *
 * @example
 * const hook = commandHook({ event: 'PreToolUse', matcher: 'create_card', command: 'sh ./deny-create.sh', timeoutSec: 10 }, { cwd: 'fixtures/hooks' });
 */
export function commandHook(spec: CommandHookSpec, options: CommandHookOptions): Hook {
  return {
    name: spec.command,
    event: spec.event,
    matcher: spec.matcher,
    // A backstop only: the hook's own timer kills its group first, and its report keeps what it printed.
    timeoutMs: (spec.timeoutSec ?? DEFAULT_HOOK_TIMEOUT_SEC) * 1000 + (options.drainGraceMs ?? 1000) + ENGINE_BACKSTOP_MS,
    run: function runCommandHook(input, signal) {
      return runCommand(spec, options, input, signal);
    },
  };
}
