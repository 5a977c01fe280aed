import { fail, isUnknownOutcome, LIMITS, ok, sha256Hex, type Failure, type Outcome } from '../../contract/index.ts';
import { textBlock, type CallContext, type RuntimeTool, type ToolOutput } from '../../pipeline/index.ts';
import { appendResults, executeCalls, toolUses } from '../calls-step.ts';
import type { LoopContext, LoopState, RequestRecord } from '../loop-state.ts';
import { isExhausted } from '../model.ts';
import type { RecordedCall } from '../recorded-call.ts';
import type { RunRecorder } from '../recorder.ts';
import { buildRequest, recordRequest } from '../request-step.ts';
import { recordResponse, respond } from '../response-step.ts';
import { agentNames } from '../run-names.ts';
import { AGENT_TOOL, subagentTools, type AgentInput, type AgentResult } from './agent-tool.ts';
import type { AgentType } from './agent-types.ts';
import { subagentStartHooks, subagentStopHooks } from './subagent-hooks.ts';

/** How a subagent stopped, as subagent_end records it. */
export type SubagentStop = 'final_answer' | 'script_exhausted' | 'max_requests' | 'max_calls' | 'failed' | 'interrupted';

/** One subagent as the run keeps it: its ids, its requests and calls (what the task's acceptance and `requestOf` read). */
export interface SubagentRun {
  readonly agentId: string;
  /** The parent's Agent action and tool_use ids. */
  readonly actionId: string;
  readonly toolCallId: string;
  readonly type: string;
  readonly requests: RequestRecord[];
  readonly calls: RecordedCall[];
}

/** The id of the subagent an Agent action starts. */
export const agentIdOf = (actionId: string): string => `agent-${actionId}`;

/** The recorder of a subagent's loop: its request, response and call events carry its `agent_id`. */
function taggedRecorder(recorder: RunRecorder, agentId: string): RunRecorder {
  return {
    writeFile: (path, bytes) => recorder.writeFile(path, bytes),
    fileRef: (path, role) => recorder.fileRef(path, role),
    append: (type, data) => recorder.append(type, (type === 'request' || type === 'response' || type === 'call' ? { ...data, agent_id: agentId } : data) as typeof data),
  };
}

/** The parent's tools a subagent may call: those of its type pinned by the Agent call's producing request, under the same bindings. */
function pinnedTable(parent: LoopContext, type: AgentType, context: CallContext): Readonly<Record<string, RuntimeTool>> {
  const pinned = context.request.bindings;
  const table = parent.tools();
  const names = subagentTools(type, Object.keys(pinned));
  return Object.fromEntries(names.flatMap((name) => (table[name] && pinned[name] && table[name].binding.id === pinned[name].id ? [[name, table[name]] as const] : [])));
}

/** An Agent call inside a subagent: refused before it runs (`subagent_nested`). */
function nestedAgent(call: { readonly id: string; readonly name: string }): Failure | undefined {
  if (call.name !== AGENT_TOOL && call.name !== 'Task') return undefined;
  return fail('precondition', 'subagent_nested', `call ${call.id} asks for ${call.name} inside a subagent: a subagent starts no subagent, so nothing was started`);
}

/** The text of a final response: its text blocks, joined by a blank line. */
export function finalText(content: readonly { readonly type: string; readonly text?: string | undefined }[]): string {
  return content.flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('\n\n');
}

/** Where a subagent's loop ended: its stop, why (when it has no final text), and its final text. */
interface LoopEnd {
  readonly stop: SubagentStop;
  readonly reason?: string;
  readonly text?: string;
  readonly failure?: Failure;
}

/** The run's subagents: started by Agent calls, each run to its end in the run's record (`Nesting`). */
export class Subagents {
  readonly runs: SubagentRun[] = [];
  /** The run's own loop, once it runs: a subagent's loop is made from it. */
  parent: LoopContext | undefined;

  /** The subagent recorded under this request id, if a subagent's loop made it. */
  requestOf(toolCallId: string): RequestRecord | undefined {
    for (const run of this.runs) {
      const found = run.requests.find((r) => r.response?.content.some((b) => b.type === 'tool_use' && b.id === toolCallId));
      if (found) return found;
    }
    return undefined;
  }

  /**
   * Runs one subagent: subagent_start, its own loop (the prompt as the only
   * user message, system = host rules + the type's body, the parent's pinned
   * bindings; at most `LIMITS.subagentRequests` requests and
   * `LIMITS.subagentCalls` calls), subagent_end; then its final text, or
   * `business/subagent_incomplete` naming why, or an unknown outcome when one
   * of its calls had one.
   */
  async run(spec: { readonly input: AgentInput; readonly type: AgentType; readonly context: CallContext }): Promise<Outcome<ToolOutput>> {
    const parent = this.parent;
    if (!parent) return fail('precondition', 'subagent_type_refused', 'no loop is running to start a subagent under; nothing was started');
    if (this.runs.length >= LIMITS.subagentsPerRun) return fail('precondition', 'too_many_subagents', `this run already started ${this.runs.length} subagents; at most ${LIMITS.subagentsPerRun} run in one run (subagentsPerRun), so nothing was started`);
    const { input, type, context } = spec;
    const model = parent.model.subagent?.(context.toolCallId);
    if (!model) return fail('business', 'subagent_incomplete', `the model has no responses for the subagent of tool_use ${context.toolCallId}; nothing was started`);
    const agentId = agentIdOf(context.actionId);
    const tools = pinnedTable(parent, type, context);
    const hooks = await subagentStartHooks(parent, { agentId, type: type.name, signal: context.signal });
    const recorded = { ...(input.model ? { model: input.model } : {}), ...(input.effort ? { effort: input.effort } : {}), ...(input.name ? { name: input.name } : {}) };
    const started = parent.recorder.append('subagent_start', {
      agent_id: agentId,
      action_id: context.actionId,
      tool_call_id: context.toolCallId,
      request_id: context.request.id,
      agent_type: type.name,
      source: { name: type.name, kind: type.source, path: type.path, sha256: type.sha256 },
      tools: Object.keys(tools),
      description: input.description,
      prompt_sha256: sha256Hex(input.prompt),
      recorded,
      not_applied: [...type.notApplied],
      ...(hooks.length > 0 ? { additional_context: hooks } : {}),
    });
    if (!started.ok) return started;
    parent.onStep?.({ type: 'subagent_start', agentId, agentType: type.name, tools: Object.keys(tools) });
    const run: SubagentRun = { agentId, actionId: context.actionId, toolCallId: context.toolCallId, type: type.name, requests: [], calls: [] };
    this.runs.push(run);
    const nested: LoopContext = {
      ...parent,
      task: { ...parent.task, prompt: { user: input.prompt, rule: type.body } },
      pipeline: { ...parent.pipeline, agent: { id: agentId, type: type.name } },
      model,
      names: agentNames(context.actionId),
      tools: () => tools,
      recorder: taggedRecorder(parent.recorder, agentId),
      refuseCall: nestedAgent,
      agent: { id: agentId, type: type.name },
      ...(parent.onStep ? { onStep: (step) => parent.onStep?.({ ...step, agent: agentId }) } : {}),
    };
    delete (nested as { method?: unknown }).method;
    const end = await subagentLoop(nested, run, input.prompt, Math.min(type.maxTurns ?? LIMITS.subagentRequests, LIMITS.subagentRequests));
    return this.#ended(parent, run, end);
  }

  /** Records subagent_end, then the Agent call's answer: the final text, or why there is none. */
  #ended(parent: LoopContext, run: SubagentRun, end: LoopEnd): Outcome<ToolOutput> {
    const ended = parent.recorder.append('subagent_end', {
      agent_id: run.agentId,
      stop: end.stop,
      requests: run.requests.length,
      tool_calls: run.calls.length,
      final_text_sha256: end.text === undefined ? null : sha256Hex(end.text),
      ...(end.reason !== undefined ? { reason: end.reason } : {}),
    });
    if (!ended.ok) return ended;
    parent.onStep?.({ type: 'subagent_end', agentId: run.agentId, stop: end.stop, requests: run.requests.length, toolCalls: run.calls.length });
    if (end.failure?.kind === 'record_write_failed') return end.failure;
    const unknown = run.calls.find((c) => !c.outcome.ok && isUnknownOutcome(c.outcome));
    if (unknown && !unknown.outcome.ok) {
      return fail('closed', 'subagent_outcome_unknown', `subagent ${run.agentId}'s call ${unknown.toolCallId} (${unknown.name}) ended ${unknown.outcome.class}/${unknown.outcome.kind}: its effect is unknown, so this call's is too`);
    }
    if (end.text === undefined) return fail('business', 'subagent_incomplete', `subagent ${run.agentId} stopped without a final text: ${end.reason ?? end.stop}`);
    const data: AgentResult = { agent_id: run.agentId, agent_type: run.type, stop: end.stop, requests: run.requests.length, tool_calls: run.calls.length, text: end.text };
    return ok({ data, content: [textBlock(end.text)], evidence: `subagent ${run.agentId}'s final response (${run.requests.length} requests, ${run.calls.length} calls, recorded under its agent_id)` });
  }
}

/**
 * A subagent's turns, as the run's loop takes them (build, record, respond,
 * record, execute, append), bounded by `maxRequests` and `LIMITS.subagentCalls`;
 * a final text that a SubagentStop hook blocks goes on with the hook's reason
 * as the next user message.
 */
async function subagentLoop(context: LoopContext, run: SubagentRun, prompt: string, maxRequests: number): Promise<LoopEnd> {
  let state: LoopState = { messages: [{ role: 'user', content: prompt }], requests: [], calls: [] };
  let stopActive = false;
  for (let turn = 0; turn < maxRequests; turn++) {
    if (context.pipeline.signal?.aborted) return { stop: 'interrupted', reason: 'the run was interrupted' };
    const built = buildRequest(context, state);
    if (!built.ok) return { stop: 'failed', reason: `${built.class}/${built.kind}: ${built.message}`, failure: built };
    const request = recordRequest(context, state, built.value);
    if (!request.ok) return { stop: 'failed', reason: `${request.class}/${request.kind}: ${request.message}`, failure: request };
    run.requests.push(request.value);
    const asked: LoopState = { ...state, requests: [...state.requests, request.value] };
    const answer = await respond(context, request.value);
    const answered = recordResponse(context, asked, answer);
    if (!answered.ok) return { stop: 'failed', reason: `${answered.class}/${answered.kind}: ${answered.message}`, failure: answered };
    if (isExhausted(answer)) return { stop: 'script_exhausted', reason: `its script has no response left (${answer.exhausted})` };
    run.requests[run.requests.length - 1] = answered.value.requests.at(-1)!;
    const uses = toolUses(answer.content);
    if (uses.length === 0) {
      const text = finalText(answer.content);
      const block = await subagentStopHooks(context, { agentId: run.agentId, type: run.type, stopActive, last: text });
      if (block === undefined) return { stop: 'final_answer', text };
      stopActive = true;
      state = { ...answered.value, messages: [...answered.value.messages, { role: 'user', content: block }] };
      continue;
    }
    if (state.calls.length + uses.length > LIMITS.subagentCalls) {
      return { stop: 'max_calls', reason: `its response ${request.value.sent.id} asks for ${uses.length} more calls after ${state.calls.length}; a subagent makes at most ${LIMITS.subagentCalls} (subagentCalls), so none of them ran` };
    }
    const executed = await executeCalls(context, answered.value, request.value.sent, uses);
    run.calls.push(...executed.calls);
    state = appendResults(answered.value, executed.calls);
    if (executed.failure) return { stop: 'failed', reason: `${executed.failure.class}/${executed.failure.kind}: ${executed.failure.message}`, failure: executed.failure };
  }
  return { stop: 'max_requests', reason: `it made ${maxRequests} requests without a final text (at most ${maxRequests}: its maxTurns, capped at subagentRequests ${LIMITS.subagentRequests})` };
}
