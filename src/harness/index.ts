/**
 * The harness: the Task interface a task plugs in through, tool providers
 * (local — `defineTool` types one by its contract —, one MCP server, the
 * host's own built-ins), the model interface and the scripted and replay
 * models, request payloads and intent records, the loop, acceptance and its
 * recheck (by task id), a whole run with its report, the host that assembles
 * a run from settings, rules and method packages (`createHost`), and
 * `verifyRun`.
 */
export type { ContentBlock, Exhausted, Message, Model, ModelOrigin, ModelResponse, StopReason, TextBlock, ToolResultBlock, ToolUseBlock, Usage } from './model.ts';
export { isExhausted, originLabel, STOP_REASONS } from './model.ts';
export { loadReplay, parseReplay, replayModel } from './replay.ts';
export type { Replay } from './replay.ts';
export { intentTools, mappingTag } from './intent.ts';
export type { Intent, IntentTool } from './intent.ts';
export { runLoop } from './loop.ts';
export type { LoopOptions, LoopRun, LoopStep, MethodStage, MethodSupport, RequestRecord } from './loop.ts';
export type { LoopResult } from './decide-acceptance.ts';
export { withNested } from './decide-acceptance.ts';
export type { SubagentRun } from './agent-tool/nested-loop.ts';
export { isAccepted } from './acceptance.ts';
export type { AcceptanceCheck, Verdict } from './acceptance.ts';
export { TASK_STAGE } from './task.ts';
export type { AcceptanceRecord, Artifact, LiveRun, RecordedRun, StartFile, Task, TaskMethod, TaskRecheck, TaskRequest, TaskRun, TaskStart } from './task.ts';
export { encodePayload, HOST_RULES, systemText, toolSpec } from './payload.ts';
export type { RequestPayload, ToolSpec } from './payload.ts';
export type { RunRecorder } from './recorder.ts';
export { runReport } from './report.ts';
export { runTask } from './run.ts';
export { endingOfFailure, summaryOf } from './ending.ts';
export type { RunEnding } from './ending.ts';
export type { RunOptions, RunOutcome } from './run.ts';
export { builtinScenarioNames, END_STOPS, ExcerptScenario, ExpectationsScenario, JSON_POINTER, loadScenario, parseScenario, readScenario, Scenario, SCENARIO_TASKS, scenarioTask, scriptedModel } from './scenario.ts';
export type { CallExpectation, Expectations, LoadedScenario, ScenarioPermissions } from './scenario.ts';
export { duplicateName, localProvider, runtimeTable } from './tools.ts';
export type { FailureRecord, HttpServerReport, ListedToolRecord, LocalTool, OfferedTool, RelistRecord, ServerEnd, ServerReport, ServerStart, StdioServerReport, ToolProvider, ToolSet } from './tools.ts';
export { CONFIGURED_GAPS, CONFIGURED_HTTP_GAPS, configuredGapsOf, startConfiguredServers } from './configured-servers.ts';
export type { ConfiguredClient, ConfiguredExchange, ConfiguredServers, ServerSpec, StartDeps } from './configured-servers.ts';
export { configuredContract, CONTENT_RESULT, descriptionCut, listedCompiler, readListedEntry } from './configured-tool.ts';
export type { CompileListed, ConfiguredContract, ListedEntry } from './configured-tool.ts';
export type { ShownIcon, ShownServer, ShownTool } from './configured-display.ts';
export { builtinOffers, hostProvider } from './host-tools.ts';
export type { Builtin, HostServices } from './host-tools.ts';
export { runNames } from './run-names.ts';
export type { RunNames } from './run-names.ts';
export { openProviders } from './open-tools.ts';
export { canonicalOf, eventAt, isVerifyFailure, recheckAcceptance, recheckByTask, shapedEvent } from './recheck.ts';
export type { RecheckReport, RecordedCallEvent } from './recheck.ts';
export { mcpProvider } from './mcp-tools.ts';
export type { McpProviderOptions } from './mcp-tools.ts';
export { effectiveInput, recordedCall, viaOf } from './recorded-call.ts';
export type { RecordedCall } from './recorded-call.ts';
export { HARNESS_KINDS } from './kinds.ts';
export { defineTool } from './define-tool.ts';
export type { ToolDefinition, ToolInput, TypedOutput } from './define-tool.ts';
export { createHost, newRunId, offeredTools, parseDefer, toolVersions } from './host.ts';
export { TOOL_SEARCH, disclosedTools, toolDisclosure } from './disclosure.ts';
export type { ToolDisclosure } from './disclosure.ts';
export { toolSearch, toolSearchContract } from './tool-search/tool-search.ts';
export type { Host, HostedRun, HostedTask, HostOptions, DeferSource, HostPermissions, HostRunOptions, PrepareOptions } from './host.ts';
export { verifyRun } from './verify-run.ts';
export { AGENT_TOOL, agentContract, agentTool, AgentInput, AgentResult, subagentTools, widerThan } from './agent-tool/agent-tool.ts';
export { agentIdOf } from './agent-tool/nested-loop.ts';
export { discoverAgentTypes, embeddedAgentNames, GENERAL_PURPOSE, parseAgentFile, PROJECT_AGENTS } from './agent-tool/agent-types.ts';
export type { AgentSource, AgentSources, AgentType, AgentTypes, RefusedAgentType } from './agent-tool/agent-types.ts';
export type { RunVerification, VerifyRunOptions } from './verify-run.ts';
