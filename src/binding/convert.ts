import { canonicalJson, fail, ok, schemaHash, type Outcome } from '../contract/index.ts';
import type { Binding } from './binding.ts';
import { deepFreeze } from '../base/index.ts';
import { applyFills } from './fills.ts';
import { isJsonObject } from './missing.ts';
import { prepareTarget, type TargetCodec } from './targets.ts';

/** What the pipeline records for one call: what the model sent, what the contract receives, what was filled. */
export interface ConvertedArguments {
  /** The model's arguments, exactly as received (deep-frozen copy). */
  readonly original: unknown;
  /** Contract arguments after conversion and fills (deep-frozen); validate these. */
  readonly converted: unknown;
  /** Top-level fields filled from `contract.fills`, in fills order. */
  readonly filled: readonly string[];
}

const codecs = new WeakMap<Binding, TargetCodec>();

/**
 * The codec a binding recorded. It is rebuilt from the binding's own contract
 * schema, then checked against the recorded conversion version and model
 * schema hash: a converter that would now produce a different schema than the
 * model was shown must not interpret that model's calls.
 */
function codecOf(binding: Binding): Outcome<TargetCodec> {
  const cached = codecs.get(binding);
  if (cached) return ok(cached);
  const prepared = prepareTarget(binding.model.target, binding.contract.schema);
  if (!prepared.ok) return prepared;
  const codec = prepared.value;
  if (codec.version !== binding.conversion.arguments || schemaHash(codec.schema) !== binding.model.schemaHash) {
    return fail(
      'precondition',
      'conversion_unavailable',
      `${binding.tool}: recorded conversion ${binding.conversion.arguments} (model schema ${binding.model.schemaHash.slice(0, 12)}) ` +
        `is not what this build produces (${codec.version}, ${schemaHash(codec.schema).slice(0, 12)})`,
    );
  }
  if (Object.isFrozen(binding)) codecs.set(binding, codec);
  return ok(codec);
}

/**
 * Converts a model's arguments into contract arguments under the binding the
 * producing request recorded, then fills only what `contract.fills` names.
 * Runs before validation; records original and actual arguments.
 *
 * @param binding The pinned binding (from `resolvePinned`).
 * @param modelArgs The parsed JSON arguments of the tool call, untrusted.
 * @returns The original, converted and filled record, or an `invalid_arguments` failure.
 */
export function convertArguments(binding: Binding, modelArgs: unknown): Outcome<ConvertedArguments> {
  if (!isJsonObject(modelArgs)) {
    const hint = typeof modelArgs === 'string' ? ' (arguments must be a JSON object, not a JSON-encoded string)' : '';
    return fail('invalid_arguments', 'not_object', `${binding.tool}: arguments must be a JSON object${hint}`);
  }
  const codec = codecOf(binding);
  if (!codec.ok) return codec;
  const original = deepFreeze(structuredClone(modelArgs));
  const decoded = codec.value.toContract(original);
  if (!decoded.ok) return fail(decoded.class, decoded.kind, `${binding.tool}: ${decoded.message}`, decoded.issues);
  const actual = applyFills(binding.contract.fills, decoded.value);
  return ok(deepFreeze({ original, converted: structuredClone(actual.args), filled: actual.filled }));
}

/**
 * Converts contract arguments into the binding's model-facing form: the
 * inverse direction, through the same codec `checkRoundTrip` uses.
 */
export function toModelArguments(binding: Binding, contractArgs: unknown): Outcome<unknown> {
  const codec = codecOf(binding);
  return codec.ok ? codec.value.toModel(contractArgs) : codec;
}

/**
 * Round-trip check: contract → model → contract must give back exactly the
 * same arguments (canonical JSON equal, so a missing field stays missing and
 * `null` stays `null`). No fills are applied: they are not part of the codec.
 *
 * @returns The model form on success; `invalid_arguments`/`round_trip` if anything changed.
 */
export function checkRoundTrip(binding: Binding, contractArgs: unknown): Outcome<unknown> {
  const codec = codecOf(binding);
  if (!codec.ok) return codec;
  const model = codec.value.toModel(contractArgs);
  if (!model.ok) return model;
  // Through JSON text, as the model would send it: nothing may ride on program-only values.
  const back = codec.value.toContract(JSON.parse(JSON.stringify(model.value)));
  if (!back.ok) return back;
  const before = canonicalJson(contractArgs);
  const after = canonicalJson(back.value);
  if (before !== after) {
    return fail('invalid_arguments', 'round_trip', `${binding.tool}: ${binding.conversion.arguments} changed the arguments`, [before, after]);
  }
  return ok(model.value);
}
