import { bindingId, convertArguments, type Binding } from '../binding/index.ts';
import { isUnknownOutcome } from '../contract/index.ts';
import type { CallEvent, Event, VerifyFailure } from '../ledger/index.ts';
import { failAt } from '../ledger/index.ts';
import { ambiguousCallIds } from './call-ids.ts';
import { canonicalOf, eventAt, type RecordedUse } from './record-checks.ts';

const inconsistent = (event: Event, message: string): VerifyFailure => failAt('call_inconsistent', message, eventAt(event));

/**
 * Each call event must agree with itself and with the run (issue W1, the
 * audit after it): a success ran its handler under an allow, through stages
 * that all passed; a failure names the stage that stopped it; a call whose id
 * repeats in its response or was used before is refused as the live loop
 * refuses it; action ids are unique; the binding it names was offered and
 * hashes to its id, and its converted input is what that binding makes of
 * the original; a rewritten input is a recorded PreToolUse hook's
 * `updatedInput`; nothing ran over MCP in a local run; a call says a
 * built-in of the host ran it exactly when its binding is one.
 */
export function checkCalls(events: readonly Event[], uses: ReadonlyMap<Event, readonly RecordedUse[]>): VerifyFailure | undefined {
  const start = events.find((e) => e.type === 'run_start')!;
  const bindings = new Map<string, Binding>();
  // A binding of any known format: its id hashes its recorded body, whichever server shape that format gives it.
  for (const binding of start.bindings as readonly Binding[]) {
    if (bindingId(binding) !== binding.id) return failAt('binding_mismatch', `binding ${binding.id} (${binding.tool}) in run_start does not hash to its id`, eventAt(start));
    bindings.set(binding.id, binding);
  }
  const preHooks = new Set(start.hooks.filter((h) => h.event === 'PreToolUse').map((h) => h.name));
  const actions = new Set<string>();
  const earlier = new Set<string>();
  let ambiguous: ReadonlySet<string> = new Set();
  for (const event of events) {
    if (event.type === 'response') {
      const asked = (uses.get(event) ?? []).map((use) => ({ id: use.id, name: use.name, arguments: undefined }));
      ambiguous = ambiguousCallIds(asked, earlier);
      continue;
    }
    if (event.type !== 'call') continue;
    const facts = event;
    const wrong =
      outcomeAgainstDecisions(facts) ??
      (ambiguous.has(facts.tool_call_id) && !(facts.outcome.ok === false && facts.outcome.kind === 'duplicate_call_id') ? `call ${facts.tool_call_id} shares its id with another call, and was not refused as duplicate_call_id` : undefined) ??
      (actions.has(facts.action_id) ? `action id ${facts.action_id} is recorded twice` : undefined) ??
      (facts.via === 'mcp' && start.transport === 'local' ? `call ${facts.tool_call_id} says it ran over MCP in a local run` : undefined) ??
      bindingMismatch(facts, bindings) ??
      hostMismatch(facts, bindings) ??
      rewriteMismatch(facts, preHooks);
    if (wrong) return inconsistent(event, wrong);
    actions.add(facts.action_id);
    earlier.add(facts.tool_call_id);
  }
  return undefined;
}

/** A success ran its handler under an allow through passing stages; a failure names the stage that stopped it. */
function outcomeAgainstDecisions(call: CallEvent): string | undefined {
  const id = call.tool_call_id;
  if (call.outcome.ok) {
    if (!call.handler_entered || call.via === 'not_executed') return `call ${id} succeeded without entering its handler`;
    if (call.permission?.decision !== 'allow') return `call ${id} succeeded under the permission decision ${JSON.stringify(call.permission?.decision ?? null)}`;
    const failed = call.stages.find((s) => s.status !== 'ok');
    if (failed || !call.stages.some((s) => s.stage === 'handler')) return `call ${id} succeeded, but its stages record ${failed ? `${failed.stage} ${failed.status}` : 'no handler'}`;
    return undefined;
  }
  const last = call.stages.at(-1);
  const named = `${call.outcome.class}/${call.outcome.kind}`;
  if (last && (last.status !== 'failed' || last.detail !== named)) return `call ${id} failed as ${named}, but its last stage records ${last.stage} ${last.status} ${last.detail ?? ''}`.trimEnd();
  // An unknown outcome may have entered its handler; any other refusal before the handler did not.
  if (!last && call.handler_entered) return `call ${id} entered its handler but records no stage`;
  if (call.handler_entered && !isUnknownOutcome(call.outcome) && last && !['handler', 'result_validate', 'output_limit', 'post_hooks'].includes(last.stage)) {
    return `call ${id} entered its handler, but failed at ${last.stage}, before it`;
  }
  return undefined;
}

/** The binding a call names was offered, is its tool's, and converts the original to the recorded input. */
function bindingMismatch(call: CallEvent, bindings: ReadonlyMap<string, Binding>): string | undefined {
  if (call.binding_id === null) return call.outcome.ok ? `call ${call.tool_call_id} succeeded with no binding` : undefined;
  const binding = bindings.get(call.binding_id);
  // A binding swapped in after run_start (binding_changed) is refused by the pipeline; it has no body here.
  if (!binding) return call.outcome.ok ? `call ${call.tool_call_id} succeeded under binding ${call.binding_id}, which run_start does not record` : undefined;
  if (binding.tool !== call.name) return `call ${call.tool_call_id} (${call.name}) names the binding of ${binding.tool}`;
  if (call.arguments.converted === undefined) return undefined;
  const converted = convertArguments(binding, call.arguments.original);
  if (!converted.ok || canonicalOf(converted.value.converted) !== canonicalOf(call.arguments.converted)) {
    return `call ${call.tool_call_id}'s converted input is not what its binding makes of the original`;
  }
  return undefined;
}

/** `via: "host"` exactly for a call that entered the handler of a binding of kind host, as run_start recorded it. */
function hostMismatch(call: CallEvent, bindings: ReadonlyMap<string, Binding>): string | undefined {
  const binding = call.binding_id === null ? undefined : bindings.get(call.binding_id);
  const host = binding?.implementation.kind === 'host';
  if (call.via === 'host' && !host) return `call ${call.tool_call_id} says a built-in of the host ran it, but its binding is no built-in's`;
  if (host && (call.via === 'local' || call.via === 'mcp')) return `call ${call.tool_call_id} ran the built-in ${binding.tool}, but says it ran ${call.via}`;
  return undefined;
}

/** A rewritten input is the `updatedInput` a PreToolUse hook of the run returned for this call (the first, as the pipeline takes it). */
function rewriteMismatch(call: CallEvent, preHooks: ReadonlySet<string>): string | undefined {
  if (call.arguments.rewritten === undefined) return undefined;
  const first = call.hooks.find((h) => h.updatedInput !== undefined);
  if (!first || !preHooks.has(first.hook) || canonicalOf(first.updatedInput) !== canonicalOf(call.arguments.rewritten)) {
    return `call ${call.tool_call_id} records a rewritten input that no PreToolUse hook of the run returned`;
  }
  return undefined;
}
