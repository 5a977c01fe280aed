import type { Failure, Outcome } from '../contract/index.ts';
import type { HookResult, PermissionDecision } from './hook.ts';
import type { ToolOutput } from './tool.ts';

/** The stages every call passes through, in order (SPEC F-PIPE). */
export type StageName =
  | 'resolve'
  | 'convert'
  | 'validate'
  | 'pre_hooks'
  | 'permission'
  | 'handler'
  | 'result_validate'
  | 'output_limit'
  | 'post_hooks';

export interface StageRecord {
  readonly stage: StageName;
  readonly status: 'ok' | 'failed';
  readonly detail?: string;
}

/** A file kept in the run dir (full outputs). */
export interface KeptFile {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** What the model proposed and what became of it on the way to the handler. */
export interface CallArguments {
  readonly original: unknown;
  readonly converted?: unknown;
  readonly filled?: readonly string[];
  readonly rewritten?: unknown;
}

/** Everything that happened to one call. Plain data; the ledger records it. */
export interface CallRecord {
  readonly toolCallId: string;
  readonly actionId: string;
  readonly name: string;
  readonly bindingId?: string;
  readonly arguments: CallArguments;
  readonly stages: readonly StageRecord[];
  readonly hooks: readonly HookResult[];
  readonly permission?: PermissionDecision;
  /** Whether the handler was entered: false for every pre-handler failure. */
  readonly handlerEntered: boolean;
  readonly outcome: Outcome<ToolOutput>;
  /**
   * When result_validate refused the handler's data: sha256 of its canonical
   * JSON (absent if JSON cannot carry it). The model never sees that data.
   */
  readonly rawResultSha256?: string;
  /** What the model sees in the tool_result: the tool's own text (its first block). */
  readonly modelText: string;
  /** Hook text for the model (a PostToolUse block reason), each its own block after the tool's; absent when none. */
  readonly hookTexts?: readonly string[];
  readonly fullOutput?: KeptFile;
}

/** Error text the model sees: the class and kind are always present. */
export function errorText(failure: Failure): string {
  return JSON.stringify({ error: { class: failure.class, kind: failure.kind, message: failure.message } });
}
