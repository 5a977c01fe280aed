import { canonicalHash, recordable, sha256Hex } from '../contract/index.ts';
import { contentSha256 } from '../pipeline/index.ts';
import { toolResultOf } from './payload.ts';
import { viaOf, type RecordedCall } from './recorded-call.ts';

/** The ledger's view of a call: ids, transport and exchange, arguments at each step, decisions, outcome. */
export function callEvent(record: RecordedCall): Record<string, unknown> {
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
    // The tool_result's blocks as the next request carries them (the recheck ties the two).
    model_content_sha256: contentSha256(toolResultOf(record).content),
    // Hook blocks follow the tool's own blocks in the tool_result, one hash each (record format 3).
    ...(record.hookContent ? { hook_text_sha256: record.hookContent.map((block) => sha256Hex(block.text)) } : {}),
    ...(record.fullOutput ? { files: [{ role: 'full_output', ...record.fullOutput }] } : {}),
  };
}
