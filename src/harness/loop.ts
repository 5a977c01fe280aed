import type { Binding } from '../binding/index.ts';
import { canonicalHash, recordable, sha256Hex } from '../contract/index.ts';
import { executeCall, runBatches, type Pipeline, type ProducingRequest, type ProtocolExchange, type RuntimeTool, type ToolCall } from '../pipeline/index.ts';
import { isAccepted, type AcceptanceCheck } from './acceptance.ts';
import { ambiguousCallIds, duplicateIdRecord } from './call-ids.ts';
import { disclosedSources } from './disclosure.ts';
import { intentTools, mappingTag, type Intent } from './intent.ts';
import type { Message, Model, ModelResponse, TextBlock, ToolResultBlock, ToolUseBlock } from './model.ts';
import { encodePayload, systemText, toolSpec, type RequestPayload } from './payload.ts';
import type { FileRef, RunRecorder } from './recorder.ts';
import { recordedCall, viaOf, type RecordedCall } from './recorded-call.ts';
import type { Artifact, Snapshot, Task } from './task.ts';

/** The method stage a request belongs to: one of the task's stages, decided by the host from what has happened. */
export type Stage = string;

/** Method material support (skills): blocks for a stage, and adoption from payload bytes. */
export interface MethodSupport {
  blocks(stage: Stage): readonly TextBlock[];
  adoption(stage: Stage, payload: Uint8Array): unknown;
}

/** A step, streamed as it happens (for human output). */
export type LoopStep =
  | { readonly type: 'request'; readonly intent: Intent }
  | { readonly type: 'response'; readonly requestId: string; readonly response: ModelResponse }
  | { readonly type: 'call'; readonly record: RecordedCall }
  | { readonly type: 'acceptance'; readonly checks: readonly AcceptanceCheck[]; readonly accepted: boolean };

export interface LoopOptions {
  readonly task: Task;
  readonly runId: string;
  readonly model: Model;
  readonly snapshot: Snapshot;
  /** The tool table in effect now. Calls are still resolved under their request's pinned bindings. */
  readonly registry: () => Readonly<Record<string, RuntimeTool>>;
  readonly pipeline: Omit<Pipeline, 'tools'>;
  readonly recorder: RunRecorder;
  /** Reads a file of the run dir (for acceptance), undefined if absent. */
  readonly readRunFile: (relPath: string) => Uint8Array | undefined;
  readonly method?: MethodSupport;
  /** The protocol exchange behind an action (MCP), failed calls included; absent for local tools. */
  readonly protocolOf?: (actionId: string) => ProtocolExchange | undefined;
  readonly maxRequests?: number;
  readonly onStep?: (step: LoopStep) => void;
}

export interface RequestRecord {
  readonly intent: Intent;
  readonly response?: ModelResponse;
  readonly responseFile?: FileRef;
}

export interface LoopResult {
  readonly requests: readonly RequestRecord[];
  readonly calls: readonly RecordedCall[];
  readonly checks: readonly AcceptanceCheck[];
  readonly accepted: boolean;
  /** What the task produced, when its acceptance names it. */
  readonly artifact?: Artifact;
  /**
   * Why the loop stopped: the model finished, the script ran out, the request
   * bound was hit, or the run was interrupted (no acceptance is decided then).
   */
  readonly stop: 'final_answer' | 'script_exhausted' | 'max_requests' | 'interrupted';
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Runs a task: request → response → calls through the pipeline → tool
 * results → next request, until a final answer; then the task's acceptance.
 * An aborted `pipeline.signal` ends it without a verdict.
 */
export async function runLoop(options: LoopOptions): Promise<LoopResult> {
  const { recorder, snapshot, task } = options;
  const messages: Message[] = [{ role: 'user', content: task.prompt.user }];
  const requests: RequestRecord[] = [];
  const calls: RecordedCall[] = [];
  const producers = new Map<string, ProducingRequest>();
  let stop: LoopResult['stop'] = 'max_requests';
  let actions = 0;

  for (let index = 0; index < (options.maxRequests ?? 8); index++) {
    // An interruption stops new work: no further request once the signal is aborted.
    if (options.pipeline.signal?.aborted) {
      stop = 'interrupted';
      break;
    }
    const registry = options.registry();
    const bindings: Record<string, Binding> = Object.fromEntries(Object.values(registry).map((t) => [t.binding.tool, t.binding]));
    const stage = task.method.stageOf(calls);
    const payload: RequestPayload = {
      model: options.model.name,
      max_tokens: 1024,
      system: [{ type: 'text', text: systemText(task) }, ...(options.method?.blocks(stage) ?? [])],
      tools: Object.values(registry).map((t) => toolSpec(t.binding)),
      messages: structuredClone(messages),
    };
    const bytes = encodePayload(payload);
    const id = `req-${pad(index + 1)}`;
    const file = recorder.writeFile(`requests/${pad(index + 1)}-request.json`, bytes);
    const intent: Intent = {
      request_id: id,
      index,
      payload: file,
      tools: intentTools(bindings),
      mapping_tag: mappingTag(bindings),
      method: options.method ? options.method.adoption(stage, bytes) : null,
      disclosed_sources: disclosedSources(bytes, snapshot),
    };
    recorder.append('request', { ...intent, files: [{ role: 'request_payload', ...file }] });
    options.onStep?.({ type: 'request', intent });
    const producing: ProducingRequest = { id, payload: bytes, payloadSha256: file.sha256, disclosedSources: intent.disclosed_sources, bindings };
    producers.set(id, producing);

    const response = await options.model.respond({ id, index, payload: bytes });
    if (!response) {
      recorder.append('response', { request_id: id, missing: true, reason: 'the scripted model has no response left' });
      requests.push({ intent });
      stop = 'script_exhausted';
      break;
    }
    // JSON.stringify would write a non-finite argument as null, a value the model never sent: the
    // response file and the history carry the same stand-in the call event records (`recordable`).
    const recordedContent = response.content.map((block) => (block.type === 'tool_use' ? { ...block, input: recordable(block.input) } : block));
    const responseFile = recorder.writeFile(
      `requests/${pad(index + 1)}-response.json`,
      new TextEncoder().encode(`${JSON.stringify({ ...response, content: recordedContent }, null, 2)}\n`),
    );
    recorder.append('response', { request_id: id, files: [{ role: 'model_response', ...responseFile }], scripted: response.scripted, usage: response.usage, stop_reason: response.stop_reason });
    requests.push({ intent, response, responseFile });
    options.onStep?.({ type: 'response', requestId: id, response });
    messages.push({ role: 'assistant', content: recordedContent });

    const uses = response.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
    if (uses.length === 0) {
      stop = 'final_answer';
      break;
    }
    const toolCalls: ToolCall[] = uses.map((use) => ({ id: use.id, name: use.name, arguments: use.input }));
    const earlier = new Set(calls.map((c) => c.toolCallId));
    const ambiguous = ambiguousCallIds(toolCalls, earlier);
    const pipeline: Pipeline = { ...options.pipeline, tools: registry };
    const results: ToolResultBlock[] = [];
    await runBatches(
      toolCalls,
      (call) => Object.hasOwn(registry, call.name) && registry[call.name]!.attributes.concurrencySafe,
      async (call) =>
        ambiguous.has(call.id)
          ? duplicateIdRecord(call, `act-${pad(++actions)}`, earlier.has(call.id))
          : executeCall(call, producing, `act-${pad(++actions)}`, { ...pipeline, tools: options.registry() }),
      (executed) => {
        // Context changes are applied after the batch, in call order.
        const record = recordedCall(executed, options.protocolOf);
        calls.push(record);
        results.push({ type: 'tool_result', tool_use_id: record.toolCallId, is_error: !record.outcome.ok, content: [{ type: 'text', text: record.modelText }] });
        recorder.append('call', { request_id: id, ...callEvent(record) });
        options.onStep?.({ type: 'call', record });
      },
    );
    messages.push({ role: 'user', content: results });
  }

  if (stop === 'interrupted' || options.pipeline.signal?.aborted) return { requests, calls, checks: [], accepted: false, stop: 'interrupted' };
  const decided = task.acceptance.live({
    snapshot,
    calls,
    requestOf: (toolCallId) => {
      const id = requests.find((r) => r.response?.content.some((b) => b.type === 'tool_use' && b.id === toolCallId))?.intent.request_id;
      const producing = id === undefined ? undefined : producers.get(id);
      return producing ? { id: producing.id, payload: producing.payload } : undefined;
    },
    readFile: options.readRunFile,
    fileRef: (relPath, role) => recorder.fileRef(relPath, role),
  });
  const { checks } = decided;
  const accepted = isAccepted(checks);
  recorder.append('acceptance', { ...(decided.files.length > 0 ? { files: decided.files } : {}), accepted, checks, ...decided.fields });
  options.onStep?.({ type: 'acceptance', checks, accepted });
  return { requests, calls, checks, accepted, ...(decided.artifact ? { artifact: decided.artifact } : {}), stop };
}

/** The ledger's view of a call: ids, transport and exchange, arguments at each step, decisions, outcome. */
function callEvent(record: RecordedCall): Record<string, unknown> {
  const outcome = record.outcome;
  return {
    tool_call_id: record.toolCallId,
    action_id: record.actionId,
    jsonrpc_id: record.protocol?.jsonrpcId ?? null,
    via: viaOf(record),
    protocol: record.protocol ?? null,
    name: record.name,
    binding_id: record.bindingId ?? null,
    // A refused input JSON cannot carry (1e400) is recorded as a stand-in saying so.
    arguments: Object.fromEntries(Object.entries(record.arguments).map(([key, value]) => [key, recordable(value)])),
    stages: record.stages,
    hooks: record.hooks.map((hook) => (hook.updatedInput === undefined ? hook : { ...hook, updatedInput: recordable(hook.updatedInput) })),
    permission: record.permission ?? null,
    handler_entered: record.handlerEntered,
    outcome: outcome.ok
      ? {
          ok: true,
          evidence: outcome.value.evidence,
          object_version: outcome.value.objectVersion ?? null,
          // Canonical, so verify can tie a receipt recorded elsewhere (acceptance) to the call that returned it.
          data_sha256: canonicalHash(recordable(outcome.value.data)),
        }
      : { ok: false, class: outcome.class, kind: outcome.kind, message: outcome.message, ...(outcome.basis ? { basis: outcome.basis } : {}), ...(record.rawResultSha256 ? { raw_result_sha256: record.rawResultSha256 } : {}) },
    model_text_sha256: sha256Hex(record.modelText),
    ...(record.fullOutput ? { files: [{ role: 'full_output', ...record.fullOutput }] } : {}),
  };
}
