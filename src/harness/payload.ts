import type { Binding } from '../binding/index.ts';
import type { Message, TextBlock } from './model.ts';

/** The task as the user states it to the model. */
export const TASK_PROMPT =
  'Make an excerpt card: read the two sources (alpha, then beta), then create one card with one verbatim quote from each, in that order. Finish with a short answer.';

/** The host's system text. It states rules; it grants nothing. */
export const SYSTEM_PROMPT =
  'You are running inside caplab, a capability harness. You may only call the tools listed in this request. ' +
  'Tool results arrive in the next request; a card can only quote sources whose results are already in the request that proposes it.';

/** A tool as the model sees it (provider-shaped). */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Readonly<Record<string, unknown>>;
}

/** A concrete request payload, shaped like a provider's messages request. */
export interface RequestPayload {
  readonly model: string;
  readonly max_tokens: number;
  readonly system: readonly TextBlock[];
  readonly tools: readonly ToolSpec[];
  readonly messages: readonly Message[];
}

/** The model-visible spec of a bound tool: its pinned full description and model-facing schema. */
export function toolSpec(binding: Binding): ToolSpec {
  return { name: binding.tool, description: binding.contract.description, input_schema: binding.model.schema };
}

/** Serialises a payload. These bytes are what is hashed, recorded, and checked. */
export function encodePayload(payload: RequestPayload): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(payload, null, 2)}\n`);
}
