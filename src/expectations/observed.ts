import { canonicalJson, recordable } from '../contract/index.ts';
import { eventAt, type LiveRun, type RecordedRun } from '../harness/index.ts';
import { failAt, type VerifyFailure } from '../ledger/index.ts';
import type { Observed, ObservedCall, ResultSchema } from './checks.ts';

/** A binding's result schema and its server's revision, as run_start records a binding (and the host holds one). */
interface BindingShape {
  readonly id: string;
  readonly contract: { readonly resultSchema: object };
  readonly server?: { readonly protocolVersion: string } | undefined;
}

const schemaOf = (binding: BindingShape | undefined): { resultSchema?: ResultSchema } =>
  binding ? { resultSchema: { schema: binding.contract.resultSchema, protocolVersion: binding.server?.protocolVersion ?? '' } } : {};

/**
 * The live run as the checks read it. A success's data is read as its result
 * file keeps it (canonical JSON of the recordable value), so the live checks
 * and `verify`'s see the same value.
 */
export function liveObserved(run: LiveRun): Observed {
  const calls = run.calls.map((call): ObservedCall => ({
    id: call.toolCallId,
    name: call.name,
    outcome: call.outcome.ok ? { ok: true, data: JSON.parse(canonicalJson(recordable(call.outcome.value.data))) } : { ok: false, class: call.outcome.class, kind: call.outcome.kind },
    ...schemaOf(run.bindingOf(call) as BindingShape | undefined),
  }));
  return { calls, stop: run.stop };
}

/**
 * A recorded run as the checks read it: each call event's outcome, a
 * success's data from its result file (the harness has tied the file to
 * `data_sha256`), the result schema of the binding run_start recorded under
 * its id, and the stop run_end records.
 */
export function recordedObserved(run: RecordedRun): Observed | VerifyFailure {
  const bindings = new Map(((run.start['bindings'] ?? []) as readonly BindingShape[]).map((binding) => [binding.id, binding]));
  const calls: ObservedCall[] = [];
  for (const call of run.calls) {
    const base = { id: call.tool_call_id, name: call.name, ...schemaOf(call.binding_id === null ? undefined : bindings.get(call.binding_id)) };
    if (!call.outcome.ok) {
      calls.push({ ...base, outcome: { ok: false, class: call.outcome.class, kind: call.outcome.kind } });
      continue;
    }
    const file = (call.files ?? []).find((f) => f.role === 'call_result');
    const bytes = file ? run.readFile(file.path) : undefined;
    if (!bytes?.ok) return failAt('result_mismatch', `call ${call.tool_call_id} succeeded, but its result data is not on record`, eventAt(call));
    calls.push({ ...base, outcome: { ok: true, data: JSON.parse(new TextDecoder().decode(bytes.value)) } });
  }
  const end = run.events.find((event) => event.type === 'run_end');
  const stop = end && 'stop' in end && typeof end.stop === 'string' ? end.stop : 'none (the run has no recorded stop)';
  return { calls, stop };
}
