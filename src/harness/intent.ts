import type { Binding } from '../binding/index.ts';
import { canonicalHash } from '../contract/index.ts';
import type { EventInput } from '../ledger/index.ts';

/**
 * The intent record of one model request (SPEC F-MODEL): the request event
 * (the ledger's events.ts) but for the file reference the loop adds, with the
 * task's own fields apart. `mapping_tag` hashes the name → binding id mapping
 * the request was shown.
 */
export type Intent = Pick<EventInput<'request'>, 'request_id' | 'index' | 'payload' | 'tools' | 'mapping_tag' | 'method' | 'disclosed_tools' | 'visible_tool_bytes' | 'skill_catalog'> & {
  /** The task's own fields of the request event (`Task.requestFields`), computed from the payload bytes, not from what the host meant to send. */
  readonly fields: Readonly<Record<string, unknown>>;
};

/** One exposed tool in an intent record. */
export type IntentTool = Intent['tools'][number];

/** The mapping tag of a set of bindings: changes when any name → binding changes. */
export function mappingTag(bindings: Readonly<Record<string, Binding>>): string {
  return canonicalHash(Object.fromEntries(Object.entries(bindings).map(([name, b]) => [name, b.id]))).slice(0, 16);
}

/** The tools a request showed, each by name and binding; `deferred` (read from the payload's bytes) marks those sent deferred. */
export function intentTools(bindings: Readonly<Record<string, Binding>>, deferred: readonly string[] = []): IntentTool[] {
  return Object.values(bindings).map((b) => ({
    name: b.tool,
    binding_id: b.id,
    schema_hash: b.contract.schemaHash,
    model_schema_hash: b.model.schemaHash,
    target: b.model.target,
    ...(deferred.includes(b.tool) ? { deferred: true as const } : {}),
  }));
}
