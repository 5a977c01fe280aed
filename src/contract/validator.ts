import type { AnySchema } from './contract.ts';
import type { JsonSchema } from './schema.ts';

/**
 * One thing a value breaks, as a validator reports it: the JSON Schema
 * keyword, where (a JSON Pointer into the value, `` for the root; a missing
 * or extra property is named by its own pointer), and why.
 */
export interface ValidationIssue {
  readonly keyword: string;
  readonly path: string;
  readonly message: string;
}

/**
 * A contract schema that is JSON Schema as someone else wrote it (a listed
 * MCP tool's inputSchema or outputSchema), with the validator compiled from
 * it. The host exports and hashes `jsonSchema` exactly as given, and
 * validation never fills a `default` nor coerces a value: a default stays an
 * annotation. caplab's own contracts are valibot schemas instead.
 */
export interface SchemaValidator {
  readonly kind: 'json-schema';
  /** The schema as given (deep-frozen by whoever made it). */
  readonly jsonSchema: JsonSchema;
  /** Every issue of `value` against the schema; empty when it conforms. */
  validate(value: unknown): readonly ValidationIssue[];
}

/** What a contract's input or result is: a valibot schema (caplab's own tools) or JSON Schema with its validator (a listed tool's). */
export type ContractSchema = AnySchema | SchemaValidator;

/** Whether a contract schema is JSON Schema with its own validator (not valibot). */
export function isSchemaValidator(schema: ContractSchema): schema is SchemaValidator {
  return (schema as { kind?: unknown }).kind === 'json-schema' && typeof (schema as { validate?: unknown }).validate === 'function';
}
