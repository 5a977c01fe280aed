import type { HookEvent, HookInput } from '../hook.ts';
import { hookToolName } from '../names.ts';
import type { Has } from './stage.ts';

/** The JSON a PreToolUse or PostToolUse hook receives about this call (Claude Code field names). */
export function hookInput(state: Has<'tool'>, event: HookEvent, toolInput: unknown, response?: unknown): HookInput {
  const { session } = state.pipeline;
  return {
    session_id: session.id,
    transcript_path: session.transcriptPath,
    cwd: session.cwd,
    hook_event_name: event,
    tool_name: hookToolName(state.tool),
    tool_input: toolInput,
    tool_use_id: state.call.id,
    ...(response === undefined ? {} : { tool_response: response }),
  };
}
