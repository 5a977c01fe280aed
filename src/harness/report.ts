import { CAPLAB_VERSION } from '../version.ts';
import { exitCodeOf } from '../base/index.ts';
import { callEvent } from './call-event.ts';
import { summaryOf } from './ending.ts';
import type { RecordedCall } from './recorded-call.ts';
import { originLabel, type ModelOrigin } from './model.ts';
import type { RequestRecord } from './loop-state.ts';
import type { SubagentRun } from './agent-tool/nested-loop.ts';
import type { RunOutcome } from './run.ts';
import type { ServerReport, ServerStart } from './tools.ts';

/** What the usage numbers of a run are, by where its responses came from. */
const USAGE_NOTES: Readonly<Record<ModelOrigin, string>> = {
  scripted: 'scripted responses: these numbers are synthetic, not measured tokens, cost or model success',
  replayed: 'replayed responses: these numbers are as recorded in the replay file, not measured by this run; nothing is claimed about cost or model success',
};

/** Each count summed over the requests (a request without a response counts 0). */
function usageTotal(perRequest: readonly Readonly<Record<string, unknown>>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const request of perRequest) {
    for (const [key, value] of Object.entries(request)) if (typeof value === 'number') total[key] = (total[key] ?? 0) + value;
  }
  return total;
}

/**
 * The one JSON document `--json` prints for a run. Everything in it comes from
 * the run's records; nothing is claimed that the run did not observe. The
 * artifact is reported under the task's name for it (`Task.artifact.name`);
 * a run with configured servers adds `servers`, one entry per server.
 */
export function runReport(outcome: RunOutcome, artifactName: string): Record<string, unknown> {
  const { loop, model } = outcome;
  const replayed = model.origin === 'replayed';
  const calls = loop.calls.map((call) => withSubagent(reportCall(call), call, loop.subagents ?? []));
  return {
    caplab: CAPLAB_VERSION,
    run_id: outcome.runId,
    scenario: model.scenario,
    transport: outcome.transport,
    scripted: model.origin === 'scripted',
    ...(replayed ? { origin: model.origin } : {}),
    model: model.name,
    server: outcome.server ? serverReport(outcome.server) : null,
    ...(outcome.servers ? { servers: outcome.servers.map(configuredReport) } : {}),
    accepted: loop.accepted,
    exit_code: exitCodeOf(outcome.ending),
    ending: summaryOf(outcome.ending),
    stop: loop.stop,
    requests: loop.requests.length,
    tool_calls: loop.calls.length,
    mcp_calls: calls.filter((c) => c.via === 'mcp').length,
    request_log: loop.requests.map(requestLogEntry),
    calls,
    acceptance: { accepted: loop.accepted, checks: loop.checks },
    [artifactName]: loop.artifact
      ? { path: `${outcome.runDir}/${loop.artifact.path}`, relative_path: loop.artifact.path, sha256: loop.artifact.sha256, bytes: loop.artifact.bytes }
      : null,
    usage: usageReport(loop.requests, model.origin),
    run_dir: outcome.runDir,
    ledger: { path: `${outcome.runDir}/ledger.jsonl`, head: outcome.head, events: outcome.events },
  };
}

/** An Agent call's report with its subagent nested under it (its requests and calls, as the run's are reported); any other call's as it is. */
function withSubagent(report: ReturnType<typeof reportCall>, call: RecordedCall, subagents: readonly SubagentRun[]): Record<string, unknown> {
  const run = subagents.find((s) => s.actionId === call.actionId);
  if (!run) return report;
  return { ...report, subagent: { agent_id: run.agentId, agent_type: run.type, requests: run.requests.length, tool_calls: run.calls.length, request_log: run.requests.map(requestLogEntry), calls: run.calls.map(reportCall) } };
}

/** The server behind MCP tools as the report names it. */
function serverReport(server: ServerReport): Record<string, unknown> {
  const reached = 'url' in server ? { url: server.url, header_names: server.headerNames } : { launch: server.launch, cwd: server.cwd, env_names: server.envNames };
  return {
    serverInfo: server.serverInfo,
    protocolVersion: server.protocolVersion,
    ...reached,
    instance_id: server.instanceId,
    gaps: server.gaps,
  };
}

/** A server the user configured, as `--json` names it: key, status, how many of its tools were bound and not, why it did not start. */
function configuredReport(server: ServerStart): Record<string, unknown> {
  const bound = server.tools.filter((tool) => tool.status === 'bound').length;
  return { key: server.key, status: server.status, tools: { bound, unbound: server.tools.length - bound }, ...(server.failure ? { failure: server.failure } : {}) };
}

/** One request of the request log: its intent, the task's fields, and what answered it. */
function requestLogEntry(r: RequestRecord): Record<string, unknown> {
  return {
    request_id: r.intent.request_id,
    payload: r.intent.payload,
    tools: r.intent.tools,
    mapping_tag: r.intent.mapping_tag,
    method: r.intent.method,
    ...r.intent.fields,
    response: r.response ? { id: r.response.id, ...originLabel(r.response.origin), stop_reason: r.response.stop_reason } : null,
  };
}

/** The run's usage per request and in total, labelled by where its responses came from. */
function usageReport(requests: readonly RequestRecord[], origin: ModelOrigin): Record<string, unknown> {
  const replayed = origin === 'replayed';
  const perRequest = requests.map((r) => ({
    request_id: r.intent.request_id,
    input_tokens: r.response?.usage.input_tokens ?? 0,
    output_tokens: r.response?.usage.output_tokens ?? 0,
    // Cache counts exist only in recorded usage; a scripted report keeps the two numbers it always had.
    ...(replayed ? { cache_creation_input_tokens: r.response?.usage.cache_creation_input_tokens ?? 0, cache_read_input_tokens: r.response?.usage.cache_read_input_tokens ?? 0 } : {}),
  }));
  return { synthetic: !replayed, note: USAGE_NOTES[origin], per_request: perRequest, total: usageTotal(perRequest) };
}

/**
 * A call as `--json` reports it: the fields of its call event (the ledger's
 * one description of a call), its outcome as `result` without the record's
 * hashes, and its kept full output. Arguments and hook results are the
 * call's own values, as `JSON.stringify` prints them, where the record keeps
 * a stand-in for what JSON cannot carry.
 */
function reportCall(call: RecordedCall) {
  const event = callEvent(call);
  const { outcome } = event;
  const kept = event.files?.[0];
  return {
    tool_call_id: event.tool_call_id,
    action_id: event.action_id,
    jsonrpc_id: event.jsonrpc_id,
    name: event.name,
    via: event.via,
    protocol: event.protocol,
    binding_id: event.binding_id,
    handler_entered: event.handler_entered,
    arguments: call.arguments,
    hooks: call.hooks,
    permission: event.permission,
    result: outcome.ok
      ? { ok: true, evidence: outcome.evidence, object_version: outcome.object_version }
      : { ok: false, class: outcome.class, kind: outcome.kind, message: outcome.message, ...(outcome.basis ? { basis: outcome.basis } : {}) },
    full_output: kept ? { path: kept.path, sha256: kept.sha256, bytes: kept.bytes } : null,
  };
}
