import type { Binding } from '../binding/index.ts';
import { fail, LIMITS, recordable, type Failure } from '../contract/index.ts';
import { executeCall, runBatches, type Pipeline, type ProducingRequest, type ProtocolExchange, type RuntimeTool, type ToolCall } from '../pipeline/index.ts';
import { isAccepted, type AcceptanceCheck } from './acceptance.ts';
import { callEvent } from './call-event.ts';
import { ambiguousCallIds, duplicateIdRecord } from './call-ids.ts';
import { intentTools, mappingTag, type Intent } from './intent.ts';
import { isExhausted, originLabel, type Message, type Model, type ModelResponse, type TextBlock, type ToolResultBlock, type ToolUseBlock } from './model.ts';
import { encodePayload, systemText, toolResultOf, toolSpec, type RequestPayload } from './payload.ts';
import { RecordRefused, type FileRef, type RunRecorder } from './recorder.ts';
import { recordedCall, type RecordedCall } from './recorded-call.ts';
import { TASK_STAGE, type Artifact, type Task, type TaskRun } from './task.ts';

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
  /** The run the task is handed (its request fields and acceptance get the same object). */
  readonly run: TaskRun;
  readonly runId: string;
  readonly model: Model;
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
   * bound was hit, the run was interrupted, or a bound refused the next step
   * (`failure` says which; no acceptance is decided after either of the last two).
   */
  readonly stop: 'final_answer' | 'script_exhausted' | 'max_requests' | 'interrupted' | 'failed';
  /** Why a `failed` loop stopped: a response with too many calls, a payload too large to send, a record limit. */
  readonly failure?: Failure;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A step refused by one of the loop's own bounds; the run ends `failed` with it. */
class LoopRefused extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

/**
 * Runs a task: request → response → calls through the pipeline → tool
 * results → next request, until a final answer; then the task's acceptance.
 * An aborted `pipeline.signal` ends it without a verdict; so does a bound
 * (`LIMITS.callsPerResponse`, `LIMITS.requestPayloadBytes`, a record limit),
 * which stops it before the step that would pass it.
 */
export async function runLoop(options: LoopOptions): Promise<LoopResult> {
  const requests: RequestRecord[] = [];
  const calls: RecordedCall[] = [];
  try {
    return await loopOver(options, requests, calls);
  } catch (error) {
    const failure = error instanceof LoopRefused || error instanceof RecordRefused ? error.failure : undefined;
    if (!failure) throw error;
    return { requests, calls, checks: [], accepted: false, stop: 'failed', failure };
  }
}

async function loopOver(options: LoopOptions, requests: RequestRecord[], calls: RecordedCall[]): Promise<LoopResult> {
  const { recorder, task } = options;
  const messages: Message[] = [{ role: 'user', content: task.prompt.user }];
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
    const stage = task.method?.stageOf(calls) ?? TASK_STAGE;
    const payload: RequestPayload = {
      model: options.model.name,
      max_tokens: 1024,
      system: [{ type: 'text', text: systemText(task) }, ...(options.method?.blocks(stage) ?? [])],
      tools: Object.values(registry).map((t) => toolSpec(t.binding)),
      messages: structuredClone(messages),
    };
    const bytes = encodePayload(payload);
    if (bytes.byteLength > LIMITS.requestPayloadBytes) {
      throw new LoopRefused(fail('precondition', 'too_large', `request ${index + 1} would be ${bytes.byteLength} bytes; at most ${LIMITS.requestPayloadBytes} are sent (requestPayloadBytes), so nothing was sent`));
    }
    const id = `req-${pad(index + 1)}`;
    const file = recorder.writeFile(`requests/${pad(index + 1)}-request.json`, bytes);
    const intent: Intent = {
      request_id: id,
      index,
      payload: file,
      tools: intentTools(bindings),
      mapping_tag: mappingTag(bindings),
      method: options.method ? options.method.adoption(stage, bytes) : null,
      fields: task.requestFields?.({ id, payload: bytes, calls }, options.run) ?? {},
    };
    const { fields, ...own } = intent;
    recorder.append('request', { ...fields, ...own, files: [{ role: 'request_payload', ...file }] });
    // Counted once recorded, so run_end's count is the ledger's even when the response cannot be.
    requests.push({ intent });
    options.onStep?.({ type: 'request', intent });
    const producing: ProducingRequest = { id, payload: bytes, payloadSha256: file.sha256, bindings };
    producers.set(id, producing);

    const response = await options.model.respond({ id, index, payload: bytes });
    if (isExhausted(response)) {
      recorder.append('response', { request_id: id, missing: true, reason: response.exhausted });
      stop = 'script_exhausted';
      break;
    }
    // JSON.stringify would write a non-finite argument as null, a value the model never sent: the
    // response file and the history carry the same stand-in the call event records (`recordable`).
    const recordedContent = recordableContent(response.content);
    const responseFile = recorder.writeFile(
      `requests/${pad(index + 1)}-response.json`,
      new TextEncoder().encode(`${JSON.stringify({ ...response.message, content: recordableContent(response.message.content) }, null, 2)}\n`),
    );
    const label = originLabel(response.origin);
    recorder.append('response', { request_id: id, files: [{ role: 'model_response', ...responseFile }], ...label, usage: response.usage, stop_reason: response.stop_reason });
    requests[requests.length - 1] = { intent, response, responseFile };
    options.onStep?.({ type: 'response', requestId: id, response });
    messages.push({ role: 'assistant', content: recordedContent });

    const uses = response.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
    if (uses.length === 0) {
      stop = 'final_answer';
      break;
    }
    if (uses.length > LIMITS.callsPerResponse) {
      // Not one of them runs: running the first N would guess which calls the model meant.
      throw new LoopRefused(fail('invalid_arguments', 'too_many_calls', `response ${id} asks for ${uses.length} tool calls; at most ${LIMITS.callsPerResponse} per response are run (callsPerResponse), so none was`));
    }
    messages.push({ role: 'user', content: await runCalls(options, uses, producing, calls, () => `act-${pad(++actions)}`) });
  }

  if (stop === 'interrupted' || options.pipeline.signal?.aborted) return { requests, calls, checks: [], accepted: false, stop: 'interrupted' };
  const decided = task.acceptance.live({
    run: options.run,
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

/** Runs one response's calls in batches, records each, and returns their tool_result blocks in call order. */
async function runCalls(options: LoopOptions, uses: readonly ToolUseBlock[], producing: ProducingRequest, calls: RecordedCall[], nextAction: () => string): Promise<ToolResultBlock[]> {
  const registry = options.registry();
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
        ? duplicateIdRecord(call, nextAction(), earlier.has(call.id))
        : executeCall(call, producing, nextAction(), { ...pipeline, tools: options.registry() }),
    (executed) => {
      // Context changes are applied after the batch, in call order.
      const record = recordedCall(executed, options.protocolOf, producing.bindings);
      options.recorder.append('call', { request_id: producing.id, ...callEvent(record) });
      calls.push(record);
      results.push(toolResultOf(record));
      options.onStep?.({ type: 'call', record });
    },
  );
  return results;
}

/** Content blocks with each tool_use input as the record may hold it (`recordable`); other blocks as they are. */
function recordableContent<B>(blocks: readonly B[]): B[] {
  return blocks.map((block) => (isToolUse(block) ? { ...block, input: recordable(block.input) } : block));
}

const isToolUse = <B>(block: B): block is B & { readonly type: 'tool_use'; readonly input: unknown } =>
  typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'tool_use';
