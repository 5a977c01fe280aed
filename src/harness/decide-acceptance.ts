import { ok, type Outcome } from '../contract/index.ts';
import { isAccepted, type AcceptanceCheck } from './acceptance.ts';
import type { LoopContext, LoopRun } from './loop-state.ts';
import type { Artifact, LiveRun, Task, TaskRun } from './task.ts';

/** The verdict decided after the loop: the task's checks, whether they accept, and what the task produced. */
export interface Decided {
  readonly checks: readonly AcceptanceCheck[];
  readonly accepted: boolean;
  /** What the task produced, when its acceptance names it. */
  readonly artifact?: Artifact;
}

/** A loop and the verdict decided after it: what a run reports. */
export type LoopResult = LoopRun & Decided;

/** No verdict: the loop was interrupted or refused a step. */
export const UNDECIDED: Decided = Object.freeze({ checks: [], accepted: false });

export interface AcceptanceInput extends Pick<LoopContext, 'recorder' | 'onStep'> {
  readonly task: Pick<Task, 'acceptance'>;
  readonly run: TaskRun;
  /** Reads a file of the run dir, undefined if absent. */
  readonly readFile: LiveRun['readFile'];
}

/**
 * Decides a finished loop's verdict (the task's `acceptance.live`, from what
 * the host observed), records the acceptance event, then reports it. A loop
 * that was interrupted or stopped at a refusal gets none: nothing is
 * decided, nothing recorded.
 */
export function decideAcceptance(input: AcceptanceInput, loop: LoopRun): Outcome<Decided> {
  if (loop.stop === 'interrupted' || loop.stop === 'failed') return ok(UNDECIDED);
  // A subagent's calls count as the run's, each judged against its own producing request.
  const nested = loop.subagents ?? [];
  const requests = [...loop.requests, ...nested.flatMap((s) => s.requests)];
  const requestOf = (toolCallId: string) => requests.find((r) => r.response?.content.some((b) => b.type === 'tool_use' && b.id === toolCallId))?.sent;
  const decided = input.task.acceptance.live({
    run: input.run,
    calls: withNested(loop.calls, nested),
    stop: loop.stop,
    requestOf,
    bindingOf: (call) => {
      const pinned = requestOf(call.toolCallId)?.bindings[call.name];
      return pinned !== undefined && pinned.id === call.bindingId ? pinned : undefined;
    },
    readFile: input.readFile,
    fileRef: (relPath, role) => input.recorder.fileRef(relPath, role),
  });
  const { checks } = decided;
  const accepted = isAccepted(checks);
  const appended = input.recorder.append('acceptance', { ...(decided.files.length > 0 ? { files: decided.files } : {}), accepted, checks, ...decided.fields });
  if (!appended.ok) return appended;
  input.onStep?.({ type: 'acceptance', checks, accepted });
  return ok({ checks, accepted, ...(decided.artifact ? { artifact: decided.artifact } : {}) });
}

/** Every call of the run in record order: a subagent's calls before the Agent call that started it. */
export function withNested<C extends { readonly actionId: string }>(calls: readonly C[], subagents: readonly { readonly actionId: string; readonly calls: readonly C[] }[] = []): readonly C[] {
  if (subagents.length === 0) return calls;
  return calls.flatMap((call) => [...(subagents.find((s) => s.actionId === call.actionId)?.calls ?? []), call]);
}

/** The loop with its verdict; a verdict the record refused ends the run `failed` with that refusal, undecided. */
export function withVerdict(loop: LoopRun, decided: Outcome<Decided>): LoopResult {
  return decided.ok ? { ...loop, ...decided.value } : { ...loop, ...UNDECIDED, stop: 'failed', failure: decided };
}
