import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** The JSON Schema dialects probe reads. */
export type Dialect = 'draft-07' | '2020-12';

/** How one schema is compiled: its dialect and strictness, the same in the listing and in judging. */
export interface CompileMode {
  readonly dialect: Dialect;
  readonly strict: boolean;
}

/**
 * What a compile is for. The listing only asks whether a schema compiles, so
 * it skips error messages and code optimisation (a third of the cost); judging
 * validates, with messages, a schema the listing already checked against its
 * meta-schema; validating (a listed tool's contract, listed-schema.ts) checks
 * the meta-schema and keeps the validator, with messages.
 */
export type CompilePurpose = 'listing' | 'judging' | 'validating';

/**
 * Creates the Ajv probe compiles tool schemas with. strictSchema alone:
 * unknown keywords and formats are errors in the strict pass; types, tuples
 * and `required` style are left to the schema author (JSON Schema allows them).
 * Validation never changes the value (stated, though they are Ajv's defaults):
 * no default filled, no type coerced, no property removed — a `default` is an
 * annotation, and what is checked is what was sent: its own properties, never
 * one it inherits (`constructor`, `__proto__`).
 */
export function newAjv(mode: CompileMode, purpose: CompilePurpose): Ajv {
  const listing = purpose === 'listing';
  const options = {
    strictSchema: mode.strict,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allErrors: true,
    useDefaults: false,
    coerceTypes: false,
    removeAdditional: false,
    // Only the value's own properties: else `{}` "has" `constructor` and `__proto__` (required passes, a typed one fails).
    ownProperties: true,
    logger: false as const,
    validateSchema: purpose !== 'judging',
    messages: !listing,
    ...(listing ? { code: { optimize: false } } : {}),
  };
  const ajv = mode.dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  return ajv;
}

/**
 * Compiles with one Ajv per dialect and strictness, made on first use: an
 * instance costs tens of milliseconds (meta-schemas, formats), a compile on
 * a warm one about one. Each compile first empties the instance's registry
 * (`removeSchema()` keeps only the meta-schemas), so no schema sees another's
 * `$id`s: tools that share an `$id`, or nest the same ones, compile as they
 * would alone, and `$ref: "#"` still names the schema being compiled (with
 * `addUsedSchema: false` Ajv cannot resolve it, and nested `$id`s are
 * registered on the instance either way).
 */
export class SchemaCompilers {
  readonly #instances = new Map<string, Ajv>();
  readonly #purpose: CompilePurpose;

  constructor(purpose: CompilePurpose) {
    this.#purpose = purpose;
  }

  /**
   * Compiles a schema; Ajv's refusal (it throws) is returned as its message.
   * A validator compiled earlier keeps working after the registry is emptied
   * for the next compile: its code and the references it resolved are its own.
   */
  compile(schema: object, mode: CompileMode): { readonly validate: ValidateFunction } | { readonly error: string } {
    const key = `${mode.dialect}/${mode.strict}`;
    let ajv = this.#instances.get(key);
    if (!ajv) this.#instances.set(key, (ajv = newAjv(mode, this.#purpose)));
    ajv.removeSchema();
    try {
      return { validate: ajv.compile(schema) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }
}
