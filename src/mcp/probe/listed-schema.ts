/**
 * A listed MCP tool's inputSchema or outputSchema as a contract schema: the
 * schema exactly as the server listed it, with an Ajv validator compiled the
 * way probe compiles it (`compileToolSchema`: draft-07 or 2020-12, nothing
 * fetched, depth, size and `$ref` loops checked first). Validation fills no
 * `default` and coerces nothing, so a value passes as it was sent. A lazy
 * unit: it loads Ajv, and only a caller that reads listed schemas loads it.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { deepFreeze } from '../../base/index.ts';
import type { JsonSchema, SchemaValidator, ValidationIssue } from '../../contract/index.ts';
import { SchemaCompilers } from './probe-ajv.ts';
import { finding, type ProbeFinding } from './probe-finding.ts';
import { compileChecked, refusedBeforeCompile, type Which } from './probe-schema.ts';
import type { VersionProfile } from '../client/index.ts';

/** What a listed schema gave: its validator when it compiled (findings then say only how leniently), else findings alone. */
export interface ListedValidator {
  readonly validator?: SchemaValidator;
  readonly findings: readonly ProbeFinding[];
}

// One Ajv per dialect and strictness for every listed schema, made on first use (see SchemaCompilers).
const compilers = new SchemaCompilers('validating');

/** One JSON Pointer token (RFC 6901). */
const token = (name: string): string => name.replaceAll('~', '~0').replaceAll('/', '~1');

/** The property an Ajv error is about when it names one beside its instance (a missing, extra or unevaluated property). */
function namedProperty(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  for (const key of ['missingProperty', 'additionalProperty', 'unevaluatedProperty']) {
    if (typeof params[key] === 'string') return params[key];
  }
  return undefined;
}

/** An Ajv error as an issue: its keyword, the pointer to what it is about, its message. */
function issueOf(error: ErrorObject): ValidationIssue {
  const property = namedProperty(error);
  const path = property === undefined ? error.instancePath : `${error.instancePath}/${token(property)}`;
  return { keyword: error.keyword, path, message: error.message ?? `fails ${error.keyword}` };
}

/** A compiled Ajv function as the contract's seam: every issue, each with its path; never a changed value. */
function validatorOf(jsonSchema: JsonSchema, validate: ValidateFunction): SchemaValidator {
  return {
    kind: 'json-schema',
    jsonSchema,
    validate(value: unknown): readonly ValidationIssue[] {
      let valid: unknown;
      try {
        valid = validate(value);
      } catch (error) {
        // A recursive schema over a value nested past the stack: not shown to conform, so it does not.
        const why = error instanceof Error ? error.message : String(error);
        return [{ keyword: 'validator', path: '', message: `validation did not finish: ${why}` }];
      }
      if (valid === true) return [];
      const errors = validate.errors ?? [];
      return errors.length > 0 ? errors.map(issueOf) : [{ keyword: 'validator', path: '', message: 'does not conform' }];
    },
  };
}

/**
 * Compiles a listed tool's schema into a contract schema, as
 * `compileToolSchema` does: its checks first, on the schema as given (a copy
 * would recurse as deep as the schema nests); then the schema is copied and
 * deep-frozen (`jsonSchema`, what the binding exports and hashes), and that
 * copy is what is compiled (Ajv's code reads parts of it, `enum` lists, as it
 * validates). A schema that is refused before
 * compiling (remote `$ref`, too deep or large, a `$ref` loop), declares
 * another dialect, does not compile, or is Ajv's `$async` (its validator
 * answers with a promise) gives findings and no validator: the caller leaves
 * that tool unbound.
 *
 * @example
 * const { validator, findings } = listedValidator(tool.inputSchema, 'inputSchema', tool.name, profile);
 */
export function listedValidator(schema: object, which: Which, tool: string, profile: VersionProfile): ListedValidator {
  const refused = refusedBeforeCompile(schema, which, tool);
  if (refused) return { findings: [refused] };
  const jsonSchema = deepFreeze(structuredClone(schema)) as JsonSchema;
  const compiled = compileChecked(jsonSchema, which, tool, profile, compilers);
  if (compiled.validate === undefined) return { findings: compiled.findings };
  if ((compiled.validate as { $async?: unknown }).$async === true) {
    const async = finding('protocol', 'schema_async', 'caplab host rule', `${which} is an $async schema (Ajv's keyword, not JSON Schema's): its validator answers later, so nothing would be checked; not compiled`, { tool, evidence: '"$async": true' });
    return { findings: [...compiled.findings, async] };
  }
  return { validator: validatorOf(jsonSchema, compiled.validate), findings: compiled.findings };
}
