import type { Binding } from '../binding/index.ts';
import { canonicalHash } from '../contract/index.ts';
import type { FileRef } from './recorder.ts';

/** One exposed tool in an intent record. */
export interface IntentTool {
  readonly name: string;
  readonly binding_id: string;
  readonly schema_hash: string;
  readonly model_schema_hash: string;
  readonly target: string;
}

/** The intent record of one model request (SPEC F-MODEL). */
export interface Intent {
  readonly request_id: string;
  readonly index: number;
  readonly payload: FileRef;
  readonly tools: readonly IntentTool[];
  /** Hash of the name → binding id mapping this request was shown. */
  readonly mapping_tag: string;
  readonly method: unknown;
  /** The task's own fields of the request event (`Task.requestFields`), computed from the payload bytes, not from what the host meant to send. */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** The mapping tag of a set of bindings: changes when any name → binding changes. */
export function mappingTag(bindings: Readonly<Record<string, Binding>>): string {
  return canonicalHash(Object.fromEntries(Object.entries(bindings).map(([name, b]) => [name, b.id]))).slice(0, 16);
}

export function intentTools(bindings: Readonly<Record<string, Binding>>): IntentTool[] {
  return Object.values(bindings).map((b) => ({
    name: b.tool,
    binding_id: b.id,
    schema_hash: b.contract.schemaHash,
    model_schema_hash: b.model.schemaHash,
    target: b.model.target,
  }));
}
