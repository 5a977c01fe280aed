import { CAPLAB_VERSION } from '../version.ts';
import { exitCodeOf } from '../base/index.ts';
import { summaryOf } from './ending.ts';
import { viaOf } from './recorded-call.ts';
import type { RunOutcome } from './run.ts';

/**
 * The one JSON document `--json` prints for a run. Everything in it comes from
 * the run's records; nothing is claimed that the run did not observe. The
 * artifact is reported under the task's name for it (`Task.artifact.name`).
 */
export function runReport(outcome: RunOutcome, scenario: string, artifactName: string): Record<string, unknown> {
  const { loop } = outcome;
  const perRequest = loop.requests.map((r) => ({
    request_id: r.intent.request_id,
    input_tokens: r.response?.usage.input_tokens ?? 0,
    output_tokens: r.response?.usage.output_tokens ?? 0,
  }));
  const calls = loop.calls.map((c) => {
    return {
      tool_call_id: c.toolCallId,
      action_id: c.actionId,
      jsonrpc_id: c.protocol?.jsonrpcId ?? null,
      name: c.name,
      via: viaOf(c),
      protocol: c.protocol ?? null,
      binding_id: c.bindingId ?? null,
      handler_entered: c.handlerEntered,
      arguments: c.arguments,
      hooks: c.hooks,
      permission: c.permission ?? null,
      result: c.outcome.ok
        ? { ok: true, evidence: c.outcome.value.evidence, object_version: c.outcome.value.objectVersion ?? null }
        : { ok: false, class: c.outcome.class, kind: c.outcome.kind, message: c.outcome.message, ...(c.outcome.basis ? { basis: c.outcome.basis } : {}) },
      full_output: c.fullOutput ?? null,
    };
  });
  return {
    caplab: CAPLAB_VERSION,
    run_id: outcome.runId,
    scenario,
    transport: outcome.transport,
    scripted: true,
    model: `scripted:${scenario}`,
    server: outcome.server
      ? {
          serverInfo: outcome.server.serverInfo,
          protocolVersion: outcome.server.protocolVersion,
          launch: outcome.server.launch,
          cwd: outcome.server.cwd,
          env_names: outcome.server.envNames,
          instance_id: outcome.server.instanceId,
          gaps: outcome.server.gaps,
        }
      : null,
    accepted: loop.accepted,
    exit_code: exitCodeOf(outcome.ending),
    ending: summaryOf(outcome.ending),
    stop: loop.stop,
    requests: loop.requests.length,
    tool_calls: loop.calls.length,
    mcp_calls: calls.filter((c) => c.via === 'mcp').length,
    request_log: loop.requests.map((r) => ({
      request_id: r.intent.request_id,
      payload: r.intent.payload,
      tools: r.intent.tools,
      mapping_tag: r.intent.mapping_tag,
      method: r.intent.method,
      disclosed_sources: r.intent.disclosed_sources,
      response: r.response ? { id: r.response.id, scripted: r.response.scripted, stop_reason: r.response.stop_reason } : null,
    })),
    calls,
    acceptance: { accepted: loop.accepted, checks: loop.checks },
    [artifactName]: loop.artifact
      ? { path: `${outcome.runDir}/${loop.artifact.path}`, relative_path: loop.artifact.path, sha256: loop.artifact.sha256, bytes: loop.artifact.bytes }
      : null,
    usage: {
      synthetic: true,
      note: 'scripted responses: these numbers are synthetic, not measured tokens, cost or model success',
      per_request: perRequest,
      total: {
        input_tokens: perRequest.reduce((sum, r) => sum + r.input_tokens, 0),
        output_tokens: perRequest.reduce((sum, r) => sum + r.output_tokens, 0),
      },
    },
    run_dir: outcome.runDir,
    ledger: { path: `${outcome.runDir}/ledger.jsonl`, head: outcome.head, events: outcome.events },
  };
}
