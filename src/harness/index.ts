/**
 * The harness: the Task interface a task plugs in through, the model interface,
 * the scripted and replay models, request payloads, intent records and disclosure,
 * the loop, acceptance and its recheck, and a whole run with its report.
 */
export type { ContentBlock, Exhausted, Message, Model, ModelOrigin, ModelResponse, StopReason, TextBlock, ToolResultBlock, ToolUseBlock, Usage } from './model.ts';
export { isExhausted, originLabel, STOP_REASONS } from './model.ts';
export { loadReplay, parseReplay, replayModel } from './replay.ts';
export type { Replay } from './replay.ts';
export { intentTools, mappingTag } from './intent.ts';
export type { Intent, IntentTool } from './intent.ts';
export { runLoop } from './loop.ts';
export type { LoopOptions, LoopResult, LoopStep, MethodSupport, RequestRecord, Stage } from './loop.ts';
export { isAccepted } from './acceptance.ts';
export type { AcceptanceCheck, Verdict } from './acceptance.ts';
export { disclosedSources, effectiveInput, sourceReads } from './disclosure.ts';
export type { ReadCall, ReadTool } from './disclosure.ts';
export type { AcceptanceRecord, Artifact, LiveRun, LocalTool, RecordedRun, RoleFileRef, Snapshot, SourceSnapshot, Task } from './task.ts';
export { encodePayload, HOST_RULES, systemText, toolSpec } from './payload.ts';
export type { RequestPayload, ToolSpec } from './payload.ts';
export type { FileRef, RunRecorder } from './recorder.ts';
export { runReport } from './report.ts';
export { runTask } from './run.ts';
export { endingOfFailure, summaryOf } from './ending.ts';
export type { RunEnding } from './ending.ts';
export type { RunOptions, RunOutcome } from './run.ts';
export { builtinScenarioNames, loadScenario, Scenario, scriptedModel } from './scenario.ts';
export { runtimeTable, localTools } from './tools.ts';
export type { ServerReport, ToolProvider, ToolSet } from './tools.ts';
export { canonicalOf, eventAt, isVerifyFailure, recheckAcceptance, shapedEvent } from './recheck.ts';
export type { RecheckReport, RecordedCallEvent } from './recheck.ts';
export { mcpTools } from './mcp-tools.ts';
export { recordedCall, viaOf } from './recorded-call.ts';
export type { RecordedCall } from './recorded-call.ts';
export { HARNESS_KINDS } from './kinds.ts';
