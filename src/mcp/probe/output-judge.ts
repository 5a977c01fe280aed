import { isCompiled } from '../wire/index.ts';
import type { CompileMode } from './probe-ajv.ts';

/** One validation the worker is asked for: a tool's outputSchema, how the listing compiled it, and a structuredContent. */
export interface JudgeRequest {
  readonly id: number;
  readonly schema: object;
  readonly mode: CompileMode;
  readonly value: unknown;
}

/** The worker's answer: valid, the first errors, or why the schema did not compile there. */
export type JudgeAnswer =
  | { readonly id: number; readonly valid: true }
  | { readonly id: number; readonly valid: false; readonly errors: readonly string[] }
  | { readonly id: number; readonly error: string };

/** How one validation ended. `timeout`: stopped at the deadline; `interrupted`: stopped by the probe's signal. */
export type Verdict =
  | { readonly kind: 'valid' }
  | { readonly kind: 'invalid'; readonly errors: readonly string[] }
  | { readonly kind: 'not_compiled'; readonly error: string }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'interrupted' };

/** The worker as the judge uses it (a Bun `Worker`, or a stand-in in tests). */
export interface JudgeWorker {
  postMessage(request: JudgeRequest): void;
  onmessage: ((event: MessageEvent<JudgeAnswer>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  terminate(): void;
}

/**
 * Where the worker's code is: beside this file in development; in the
 * binary, the entry point scripts/build.ts embeds, named by its path under
 * `src/` (Bun puts each entry there, while this module's own chunk sits
 * elsewhere, so a URL relative to it would miss).
 */
export function judgeWorkerSource(compiled: boolean = isCompiled()): string {
  return compiled ? JUDGE_WORKER_IN_BINARY : new URL('./output-judge-worker.ts', import.meta.url).href;
}

/** The worker's path under `src/`, as the compiled binary names it. */
export const JUDGE_WORKER_IN_BINARY = './mcp/probe/output-judge-worker.ts';

/** Starts the worker; `ref: false`, so an idle worker never keeps the process alive (a pending deadline does, while it judges). */
const startWorker = (): JudgeWorker => new Worker(judgeWorkerSource(), { ref: false }) as unknown as JudgeWorker;

/**
 * Validates structuredContent against a tool's outputSchema on a worker
 * thread, so that no validation outlives its deadline: Ajv is synchronous,
 * and a backtracking `pattern` or an exponential schema can run for minutes.
 * At the deadline, or when `signal` aborts, the worker is terminated and the
 * next validation starts a fresh one. `terminate()` stops a JavaScript loop
 * within milliseconds, but JSC looks for it only between regex evaluations
 * (a backtracking one gives up after about a second), so the thread may run
 * on that long: the judge does not wait for it; a process exiting then does,
 * for at most the rest of that evaluation. A Worker, not a linear-time regex
 * engine: it bounds every keyword (an exponential `allOf` of `$ref`s too) and
 * needs no new dependency. The worker starts on the first validation, never at import.
 */
export class OutputJudge {
  readonly #start: () => JudgeWorker;
  #worker: JudgeWorker | undefined;
  #next = 1;
  /** Workers started, for tests (lazy start, restart after a deadline). */
  started = 0;

  constructor(start: () => JudgeWorker = startWorker) {
    this.#start = start;
  }

  /** Validates one value within `timeoutMs`; a worker that cannot start is a programmer error (a build without its entry) and rejects. */
  validate(schema: object, mode: CompileMode, value: unknown, timeoutMs: number, signal?: AbortSignal): Promise<Verdict> {
    if (signal?.aborted) return Promise.resolve({ kind: 'interrupted' });
    const worker = this.#worker ?? this.#fresh();
    const id = this.#next++;
    return new Promise<Verdict>((resolve, reject) => {
      const settle = (verdict: Verdict | Error, stop: boolean): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.onmessage = null;
        worker.onerror = null;
        if (stop) this.#stop(worker);
        if (verdict instanceof Error) reject(verdict);
        else resolve(verdict);
      };
      const onAbort = (): void => settle({ kind: 'interrupted' }, true);
      const timer = setTimeout(() => settle({ kind: 'timeout' }, true), Math.max(0, timeoutMs));
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.onmessage = (event) => {
        const answer = event.data;
        if (answer.id !== id) return;
        if ('error' in answer) settle({ kind: 'not_compiled', error: answer.error }, false);
        else settle(answer.valid ? { kind: 'valid' } : { kind: 'invalid', errors: answer.errors }, false);
      };
      worker.onerror = (event) => settle(new Error(`probe: the output judge worker failed: ${event.message}`), true);
      worker.postMessage({ id, schema, mode, value });
    });
  }

  /** Stops the worker, if one runs. */
  close(): void {
    if (this.#worker) this.#stop(this.#worker);
  }

  #fresh(): JudgeWorker {
    this.started += 1;
    return (this.#worker = this.#start());
  }

  #stop(worker: JudgeWorker): void {
    worker.terminate();
    if (this.#worker === worker) this.#worker = undefined;
  }
}
