/**
 * The execution pipeline (SPEC F-PIPE): the single path every tool call takes,
 * local or MCP — resolve → convert → validate → PreToolUse hooks → permission
 * → handler → result validation → output limit → PostToolUse hooks → result.
 * `STAGES` is that path as data, in order; `executeCall` folds a call over it.
 * Its subfolders (hooks, permissions, settings) are part of this surface, so a
 * library user assembles a `Pipeline` from this one import.
 */
export { partition, runBatches } from './batch.ts';
export type { Hook, HookEvent, HookInput, HookResult, PermissionDecision, SubagentHookInput, ToolHookInput } from './hook.ts';
export { TOOL_HOOK_EVENTS } from './hook.ts';
export { toolNames } from './names.ts';
export type { Nameable } from './names.ts';
export { limitContent } from './output-limit.ts';
export type { LimitedContent, OutputCut } from './output-limit.ts';
export { contentSha256, textBlock, toolReference } from './result-block.ts';
export type { ImageResultBlock, ResultBlock, TextResultBlock, ToolReferenceBlock } from './result-block.ts';
export { errorContent, errorText } from './call-record.ts';
export type { CallArguments, CallRecord, KeptFile, StageName, StageRecord } from './call-record.ts';
export { executeCall } from './run.ts';
export { resolveCall, STAGES } from './stages/index.ts';
export type { Adds, CallState, Has, Pending, Pipeline, CallStage, Step } from './stages/index.ts';
export { attributesOf } from './tool.ts';
export type { CallContext, ProducingRequest, ProtocolExchange, RuntimeTool, TaskTrace, ToolAttributes, ToolCall, ToolOutput } from './tool.ts';
export * from './hooks/index.ts';
export * from './permissions/index.ts';
export * from './settings/index.ts';
export { PIPELINE_KINDS } from './kinds.ts';
