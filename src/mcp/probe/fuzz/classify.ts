/**
 * Which fuzzed sets are valid: Ajv's verdict against the tool's advertised
 * inputSchema, compiled as probe compiles it (`compileToolSchema`: bounded,
 * never fetching, the revision's dialect) — never the generator's intent. A
 * schema probe does not compile gives no validator: that tool is not fuzzed.
 */
import type { VersionProfile } from '../../client/index.ts';
import { SchemaCompilers } from '../probe-ajv.ts';
import type { ProbeFinding } from '../probe-finding.ts';
import { compileToolSchema } from '../probe-schema.ts';

/** One set and what Ajv said of it. */
export interface ClassifiedSet {
  readonly index: number;
  readonly arguments: unknown;
  readonly valid: boolean;
}

/** The sets classified, or why the tool's schema gives no validator (its findings). */
export function classifySets(tool: string, inputSchema: object, sets: readonly unknown[], profile: VersionProfile): { readonly sets: readonly ClassifiedSet[] } | { readonly notFuzzed: readonly ProbeFinding[] } {
  const compiled = compileToolSchema(inputSchema, 'inputSchema', tool, profile, new SchemaCompilers('validating'));
  const validate = compiled.validate;
  if (!validate) return { notFuzzed: compiled.findings };
  return { sets: sets.map((value, index) => ({ index, arguments: value, valid: validate(value) === true })) };
}
