import type { Binding } from '../binding/index.ts';
import type { CallRecord } from '../pipeline/index.ts';
import type { Message, TextBlock, ToolResultBlock } from './model.ts';
import type { Task } from './task.ts';

/** The host's own rules, the start of every request's system text. It states rules; it grants nothing. */
export const HOST_RULES = 'You are running inside caplab, a capability harness. You may only call the tools listed in this request.';

/** The system text of a task's requests: the host's rules, then the task's own rule. */
export function systemText(task: Pick<Task, 'prompt'>): string {
  return `${HOST_RULES} ${task.prompt.rule}`;
}

/**
 * A tool as the model sees it (the Messages API's shape). A deferred tool's
 * definition is sent too, with `defer_loading: true` (never `false`: a tool
 * deferred nothing has no such key, so a run deferring nothing sends the
 * bytes it sent before): a provider with tool search keeps it out of the
 * model's context until a ToolSearch answer references it.
 */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Readonly<Record<string, unknown>>;
  readonly defer_loading?: true;
}

/** A concrete request payload, shaped like a provider's messages request. */
export interface RequestPayload {
  readonly model: string;
  readonly max_tokens: number;
  readonly system: readonly TextBlock[];
  readonly tools: readonly ToolSpec[];
  readonly messages: readonly Message[];
}

/** The model-visible spec of a bound tool: its pinned full description and model-facing schema, and whether it is deferred. */
export function toolSpec(binding: Binding, deferred = false): ToolSpec {
  const spec = { name: binding.tool, description: binding.contract.description, input_schema: binding.model.schema };
  return deferred ? { ...spec, defer_loading: true } : spec;
}

/**
 * A call's tool_result as the next request carries it: the tool's own blocks
 * first, then each hook's block, so no hook can write into what the tool
 * answered (disclosure reads only the first block). Its `content` is what a
 * call event's `model_content_sha256` hashes.
 */
export function toolResultOf(record: Pick<CallRecord, 'toolCallId' | 'outcome' | 'modelContent' | 'hookContent'>): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: record.toolCallId, is_error: !record.outcome.ok, content: [...record.modelContent, ...(record.hookContent ?? [])] };
}

/** Serialises a payload. These bytes are what is hashed, recorded, and checked. */
export function encodePayload(payload: RequestPayload): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(payload, null, 2)}\n`);
}
