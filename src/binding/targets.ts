import { fail, ok, type JsonSchema, type Outcome } from '../contract/index.ts';
import { decodeStrict, encodeStrict, STRICT_CONVERSION } from './strict-codec.ts';
import { compileStrict } from './strict-schema.ts';

/** How a model-facing schema is shaped (SPEC F-CONTRACT "model-facing conversion"). */
export type ModelTarget = 'plain' | 'strict' | 'anthropic';

export const MODEL_TARGETS: readonly ModelTarget[] = Object.freeze(['plain', 'strict', 'anthropic'] as const);

/** Arguments conversion of the `plain` target: the identity. */
export const PLAIN_CONVERSION = 'plain/1';
/** Arguments conversion of the `anthropic` target: the identity, behind an object-root check. */
export const ANTHROPIC_CONVERSION = 'anthropic/1';
/** Results are not reshaped per target (the model sees the tool_result text), so one version for all. */
export const RESULT_CONVERSION = 'plain/1';

/**
 * One target prepared for one contract schema: the model-facing schema and
 * both conversion directions. A pure function of (contract schema, version),
 * so a binding that records both fully determines how its calls convert.
 */
export interface TargetCodec {
  readonly target: ModelTarget;
  readonly version: string;
  readonly schema: JsonSchema;
  /** Model arguments → contract arguments (missing stays missing). */
  readonly toContract: (modelArgs: unknown) => Outcome<unknown>;
  /** Contract arguments → model arguments, for the round-trip check. */
  readonly toModel: (contractArgs: unknown) => Outcome<unknown>;
}

const identity = (value: unknown): Outcome<unknown> => ok(value);

/**
 * Prepares a target for a contract's exported input schema, or refuses with
 * `precondition`/`unrepresentable` naming the field and why.
 *
 * - `plain`: the contract's JSON Schema as is; arguments pass unchanged.
 * - `anthropic`: a Messages API tool `input_schema`. It must be an object
 *   schema at the root; optional properties may be omitted and `null` is a
 *   value, so missing / null / "" survive natively and the contract schema is
 *   sent unchanged. Non-object roots (a bare union, a string) are refused.
 * - `strict`: every property required, `additionalProperties: false` on every
 *   object, optional fields as `{ op, value }` envelopes (see strict-schema.ts).
 *
 * @param target The model interface.
 * @param contractSchema The contract's exported input schema.
 */
export function prepareTarget(target: ModelTarget, contractSchema: JsonSchema): Outcome<TargetCodec> {
  switch (target) {
    case 'plain':
      return ok({ target, version: PLAIN_CONVERSION, schema: contractSchema, toContract: identity, toModel: identity });
    case 'anthropic':
      if (contractSchema['type'] !== 'object' || 'anyOf' in contractSchema) {
        const reason = 'a tool input_schema must be an object schema at the root';
        return fail('precondition', 'unrepresentable', `anthropic: (root): ${reason}`, ['(root)', reason]);
      }
      return ok({ target, version: ANTHROPIC_CONVERSION, schema: contractSchema, toContract: identity, toModel: identity });
    case 'strict': {
      const plan = compileStrict(contractSchema);
      if (!plan.ok) return plan;
      return ok({
        target,
        version: STRICT_CONVERSION,
        schema: plan.value.schema,
        toContract: (modelArgs) => decodeStrict(plan.value, modelArgs),
        toModel: (contractArgs) => encodeStrict(plan.value, contractArgs),
      });
    }
  }
}
