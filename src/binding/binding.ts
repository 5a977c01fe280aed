import { canonicalHash, exportContract, type Contract, type JsonSchema } from '../contract/index.ts';

/** How a model-facing schema is shaped (SPEC F-CONTRACT "model-facing conversion"). */
export type ModelTarget = 'plain' | 'strict' | 'anthropic';

/** Who runs the implementation. */
export interface Implementation {
  readonly kind: 'local' | 'mcp';
  readonly version: string;
}

/** The identity of an MCP server instance, as far as the host can know it. */
export interface ServerIdentity {
  readonly name: string;
  readonly version: string;
  readonly protocolVersion: string;
  readonly launch: readonly string[];
  readonly instanceId: string;
}

/**
 * A binding (SPEC F-BIND): the exact contract, model-facing schema,
 * conversions and implementation a model request was shown. Deep-frozen;
 * `id` is the hash of everything else.
 */
export interface Binding {
  readonly id: string;
  /** The model-visible tool name. */
  readonly tool: string;
  readonly contract: {
    readonly name: string;
    readonly version: string;
    readonly schema: JsonSchema;
    readonly schemaHash: string;
    readonly resultSchema: JsonSchema;
    readonly resultSchemaHash: string;
  };
  readonly model: { readonly target: ModelTarget; readonly schema: JsonSchema; readonly schemaHash: string };
  readonly conversion: { readonly arguments: string; readonly result: string };
  readonly implementation: Implementation;
  readonly server?: ServerIdentity;
  /** What the host cannot know (e.g. "remote build unknown"). Stated, never papered over. */
  readonly gaps: readonly string[];
}

/** Deep-freezes plain data in place and returns it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

export interface BindOptions {
  readonly tool?: string;
  readonly implementation: Implementation;
  readonly server?: ServerIdentity;
  readonly gaps?: readonly string[];
}

/** Argument/result conversion version for the `plain` target (identity). */
export const PLAIN_CONVERSION = 'plain/1';

/**
 * Binds a contract to an implementation for the `plain` target.
 * The result is a deep-frozen copy: later changes to the inputs cannot reach it.
 */
export function bind(contract: Contract, options: BindOptions): Binding {
  const exported = exportContract(contract);
  const body = structuredClone({
    tool: options.tool ?? contract.name,
    contract: {
      name: contract.name,
      version: contract.version,
      schema: exported.inputSchema,
      schemaHash: exported.inputSchemaHash,
      resultSchema: exported.resultSchema,
      resultSchemaHash: exported.resultSchemaHash,
    },
    model: { target: 'plain' as const, schema: exported.inputSchema, schemaHash: exported.inputSchemaHash },
    conversion: { arguments: PLAIN_CONVERSION, result: PLAIN_CONVERSION },
    implementation: options.implementation,
    ...(options.server ? { server: options.server } : {}),
    gaps: options.gaps ?? [],
  });
  return deepFreeze({ id: canonicalHash(body), ...body });
}
