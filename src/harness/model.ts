/**
 * The model interface and the wire shapes the loop exchanges with it. Shaped
 * like a real provider's messages API so payloads are concrete, not abstract.
 */
import type { EventInput } from '../ledger/index.ts';
import type { ResultBlock } from '../pipeline/index.ts';

export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
}
export interface ToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}
/** A call's answer in the next request: its content is result blocks (`ResultBlock`, the kinds MCP and the Messages API share). */
export interface ToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly is_error: boolean;
  readonly content: readonly ResultBlock[];
}
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock;

export interface Message {
  readonly role: 'user' | 'assistant';
  readonly content: string | readonly ContentBlock[];
}

/**
 * Where a model's responses come from, and so how every report labels them:
 * `scripted` (a scenario's steps; usage synthetic) or `replayed` (a file of
 * recorded provider responses; usage as recorded there). Nothing here is a
 * live model.
 */
export type ModelOrigin = 'scripted' | 'replayed';

/** Why a response ended, as the Anthropic Messages API names it (`pause_turn` is not replayed). */
export const STOP_REASONS = ['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal', 'model_context_window_exceeded'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/**
 * Usage numbers. Scripted ones say `synthetic: true`; replayed ones are the
 * file's `usage` object as read (cache counts and any other field included),
 * never marked synthetic.
 */
export interface Usage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_input_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
  readonly synthetic?: true;
}

export interface ModelResponse {
  readonly id: string;
  /** The model's origin, repeated on each response so a report of one response can say it. */
  readonly origin: ModelOrigin;
  readonly content: readonly (TextBlock | ToolUseBlock)[];
  readonly stop_reason: StopReason;
  readonly usage: Usage;
  /**
   * The response as the model gave it: what the run dir's response file
   * records (tool_use inputs made recordable by the loop). Scripted: the
   * fields above with `scripted: true`; replayed: the file's line as parsed.
   */
  readonly message: { readonly content: readonly unknown[] } & Readonly<Record<string, unknown>>;
}

/** What a model says when asked for a response it does not have; the loop stops (`script_exhausted`). */
export interface Exhausted {
  readonly exhausted: string;
}

/** A model: given the exact payload bytes of a request, produce a response, or say it has none left. */
export interface Model {
  /** The payload's `model` field and run_start's `model.name` (`scripted:<scenario>`, `replayed:<model>`). */
  readonly name: string;
  readonly origin: ModelOrigin;
  /** What run_start records: the scenario it plays (null when none) and its `model` entry. */
  readonly record: { readonly scenario: string | null; readonly model: EventInput<'run_start'>['model'] };
  /**
   * `index` counts this loop's requests; `sequence`, when the run has a
   * subagent loop, counts every level's requests of the run (a replay file's
   * lines answer them in that order).
   */
  respond(request: { readonly id: string; readonly index: number; readonly sequence?: number; readonly payload: Uint8Array }): Promise<ModelResponse | Exhausted>;
  /**
   * Fields run_end adds about the model, given how many responses the run
   * recorded (a replay's used and unused lines); absent adds none.
   */
  ended?(answered: number): Readonly<Record<string, unknown>>;
  /** The model of the subagent a parent's Agent call starts, by that call's tool_use id (a scenario's `subagents` script); undefined when it has none. */
  subagent?(toolUseId: string): Model | undefined;
}

/**
 * The fields that label a response event and run_start's model entry with
 * their origin. A scripted record keeps the `scripted: true` it always had; a
 * replayed one says `scripted: false` and names its origin.
 */
export function originLabel(origin: 'scripted'): { readonly scripted: true };
export function originLabel(origin: 'replayed'): { readonly scripted: false; readonly origin: 'replayed' };
export function originLabel(origin: ModelOrigin): { readonly scripted: true } | { readonly scripted: false; readonly origin: 'replayed' };
export function originLabel(origin: ModelOrigin): { readonly scripted: true } | { readonly scripted: false; readonly origin: 'replayed' } {
  return origin === 'scripted' ? { scripted: true } : { scripted: false, origin };
}

/** Whether a response answered or the model had none left. */
export function isExhausted(answer: ModelResponse | Exhausted): answer is Exhausted {
  return 'exhausted' in answer;
}
