import type { Failure, Outcome } from '../contract/index.ts';
import type { HookResult, PermissionDecision } from './hook.ts';
import type { OutputCut } from './output-limit.ts';
import { textBlock, type ResultBlock, type TextResultBlock } from './result-block.ts';
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
   * When result_validate refused the handler's data or content: sha256 of its
   * canonical JSON (absent if JSON cannot carry it). The model never sees it.
   */
  readonly rawResultSha256?: string;
  /** What the model sees of the tool's answer, the tool_result's first blocks: the tool's own (after the output limit) or the error. */
  readonly modelContent: readonly ResultBlock[];
  /** Blocks hooks add for the model (a PostToolUse block reason), after the tool's; absent when none. */
  readonly hookContent?: readonly TextResultBlock[];
  readonly fullOutput?: KeptFile;
  /** What the output limit cut or left out; absent when the whole result fit. */
  readonly outputCut?: OutputCut;
}

/** Error text the model sees: the class and kind are always present. */
export function errorText(failure: Failure): string {
  return JSON.stringify({ error: { class: failure.class, kind: failure.kind, message: failure.message } });
}

/** What the model sees of a failed call: its error text, one block. */
export function errorContent(failure: Failure): readonly ResultBlock[] {
  return [textBlock(errorText(failure))];
}
