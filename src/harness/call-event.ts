import { canonicalHash, canonicalJson, recordable, sha256Hex } from '../contract/index.ts';
import type { EventInput, WrittenFile } from '../ledger/index.ts';
import { contentSha256, type CallArguments } from '../pipeline/index.ts';
import { toolResultOf } from './payload.ts';
import { viaOf, type RecordedCall } from './recorded-call.ts';

/** A call event but for the request it answers: what the loop adds. */
export type CallEventData = Omit<EventInput<'call'>, 'request_id'>;

/**
 * The ledger's view of a call (its `call` event, events.ts): ids, transport
 * and exchange, arguments at each step, decisions, outcome; and the files
 * it vouches for: its full output, its result data when the task keeps it.
 */
export function callEvent(record: RecordedCall, result?: WrittenFile): CallEventData {
  const outcome = record.outcome;
  return {
    tool_call_id: record.toolCallId,
    action_id: record.actionId,
    jsonrpc_id: record.protocol?.jsonrpcId ?? null,
    via: viaOf(record),
    protocol: exchangeOf(record.protocol),
    name: record.name,
    binding_id: record.bindingId ?? null,
    arguments: recordedArguments(record.arguments),
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
    ...callFiles(record, result),
    ...(record.protocol?.task ? { task: record.protocol.task } : {}),
  };
}

/** The exchange as `protocol` records it; a task's trace is the call's own `task` (format 12). */
function exchangeOf(protocol: RecordedCall['protocol']): CallEventData['protocol'] {
  if (!protocol) return null;
  const { task: _task, ...exchange } = protocol;
  return exchange;
}

/** The call's files: its full output (kept when the result was cut), its result data (record format 6). */
function callFiles(record: RecordedCall, result: WrittenFile | undefined): Pick<CallEventData, 'files'> {
  const files = [...(record.fullOutput ? [{ role: 'full_output' as const, ...record.fullOutput }] : []), ...(result ? [{ role: 'call_result' as const, ...result }] : [])];
  return files.length > 0 ? { files } : {};
}

/** The data a task that keeps results finds in `results/<action>.json`: the outcome's data as canonical JSON (its sha256 is `data_sha256`). */
export function resultBytes(data: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalJson(recordable(data)));
}

/** The arguments at each step; a refused input JSON cannot carry (1e400) is recorded as a stand-in saying so. */
function recordedArguments(args: CallArguments): CallEventData['arguments'] {
  return {
    original: recordable(args.original),
    ...(Object.hasOwn(args, 'converted') ? { converted: recordable(args.converted) } : {}),
    ...(args.filled !== undefined ? { filled: args.filled } : {}),
    ...(Object.hasOwn(args, 'rewritten') ? { rewritten: recordable(args.rewritten) } : {}),
  };
}
