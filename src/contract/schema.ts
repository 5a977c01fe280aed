import { toJsonSchema } from '@valibot/to-json-schema';
import { deepFreeze } from '../base/index.ts';
import { codePointBounds } from './code-points.ts';
import type { AnySchema, Contract } from './contract.ts';
import { canonicalHash } from './hash.ts';
import { isSchemaValidator, type ContractSchema } from './validator.ts';

/** The JSON Schema dialect every exported schema declares. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** A JSON Schema as plain data. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * Exports a valibot schema as JSON Schema draft 2020-12. Throws if the schema
 * uses something JSON Schema cannot express: a contract whose exported schema
 * silently differs from what we validate would mislead every peer.
 */
export function exportSchema(schema: AnySchema): JsonSchema {
  return toJsonSchema(schema, {
    target: 'draft-2020-12',
    errorMode: 'throw',
    overrideAction: ({ valibotAction, jsonSchema }) => {
      const bounds = codePointBounds(valibotAction);
      return bounds ? { ...jsonSchema, minLength: bounds.min, maxLength: bounds.max } : undefined;
    },
  }) as JsonSchema;
}

/** sha256 of the canonical JSON of an exported schema. */
export function schemaHash(schema: JsonSchema): string {
  return canonicalHash(schema);
}

/** The input and result schemas of a contract, exported, with their hashes. */
export interface ExportedContract {
  readonly inputSchema: JsonSchema;
  readonly inputSchemaHash: string;
  readonly resultSchema: JsonSchema;
  readonly resultSchemaHash: string;
}

const exported = new WeakMap<Contract, ExportedContract>();

/**
 * A contract schema as JSON Schema: a valibot schema exported, a
 * `SchemaValidator`'s schema exactly as given (a listed tool's schema is
 * hashed as the server wrote it, never re-exported). A copy either way.
 */
function jsonSchemaOf(schema: ContractSchema): JsonSchema {
  return structuredClone(isSchemaValidator(schema) ? schema.jsonSchema : exportSchema(schema));
}

/**
 * Exports a contract's schemas, once per contract object: a run binds and
 * pins the same contract several times (binding, handshake, server), and the
 * export is the costliest step of each. The result is deep-frozen, since
 * every caller shares it — a copy, because the JSON Schema export shares
 * arrays (a picklist's options) with the valibot schema, and freezing those
 * would freeze the caller's own data.
 */
export function exportContract(contract: Contract): ExportedContract {
  const known = exported.get(contract);
  if (known) return known;
  const inputSchema = jsonSchemaOf(contract.input);
  const resultSchema = jsonSchemaOf(contract.result);
  const result = deepFreeze({
    inputSchema,
    inputSchemaHash: schemaHash(inputSchema),
    resultSchema,
    resultSchemaHash: schemaHash(resultSchema),
  });
  exported.set(contract, result);
  return result;
}
