/**
 * The model interface and the wire shapes the loop exchanges with it. Shaped
 * like a real provider's messages API so payloads are concrete, not abstract.
 */
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

/** Usage numbers. `synthetic: true` whenever they were not measured from a real model. */
export interface Usage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly synthetic: boolean;
}

export interface ModelResponse {
  readonly id: string;
  /** True for every response not produced by a real model. Always shown. */
  readonly scripted: boolean;
  readonly content: readonly (TextBlock | ToolUseBlock)[];
  readonly stop_reason: 'tool_use' | 'end_turn';
  readonly usage: Usage;
}

/** A model: given the exact payload bytes of a request, produce a response. */
export interface Model {
  readonly name: string;
  readonly scripted: boolean;
  respond(request: { readonly id: string; readonly index: number; readonly payload: Uint8Array }): Promise<ModelResponse | undefined>;
}
