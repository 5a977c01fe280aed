import { runHookEvent, type SubagentHookInput } from '../../pipeline/index.ts';
import type { LoopContext } from '../loop-state.ts';

/** The session fields every hook input carries, from the loop's pipeline. */
function session(context: LoopContext): Pick<SubagentHookInput, 'session_id' | 'transcript_path' | 'cwd'> {
  const { session } = context.pipeline;
  return { session_id: session.id, transcript_path: session.transcriptPath, cwd: session.cwd };
}

const signalOf = (context: LoopContext, signal?: AbortSignal): AbortSignal => signal ?? context.pipeline.signal ?? new AbortController().signal;

/**
 * SubagentStart hooks (matched on the agent type) observe a subagent's
 * start: what they return as `additionalContext` is recorded in
 * subagent_start, never added to the subagent's messages.
 */
export async function subagentStartHooks(context: LoopContext, agent: { readonly agentId: string; readonly type: string; readonly signal?: AbortSignal }): Promise<readonly string[]> {
  const input: SubagentHookInput = { ...session(context), hook_event_name: 'SubagentStart', agent_id: agent.agentId, agent_type: agent.type };
  const { results } = await runHookEvent(context.pipeline.hooks, 'SubagentStart', [agent.type], input, signalOf(context, agent.signal));
  return results.flatMap((r) => (r.additionalContext !== undefined ? [r.additionalContext] : []));
}

/**
 * SubagentStop hooks (matched on the agent type), given the subagent's final
 * text: a block (`decision: "block"` with a reason, or exit 2) keeps it
 * going, with the reason as its next user message; undefined lets it stop.
 */
export async function subagentStopHooks(context: LoopContext, agent: { readonly agentId: string; readonly type: string; readonly stopActive: boolean; readonly last: string }): Promise<string | undefined> {
  const input: SubagentHookInput = {
    ...session(context),
    hook_event_name: 'SubagentStop',
    agent_id: agent.agentId,
    agent_type: agent.type,
    stop_hook_active: agent.stopActive,
    last_assistant_message: agent.last,
  };
  const { results } = await runHookEvent(context.pipeline.hooks, 'SubagentStop', [agent.type], input, signalOf(context));
  const blocks = results.flatMap((r) => (r.block !== undefined ? [r.block] : []));
  return blocks.length > 0 ? blocks.join('\n') : undefined;
}
