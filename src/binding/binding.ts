import { canonicalHash, exportContract, schemaHash, type Completion, type Contract, type Effect, type ErrorClass, type JsonSchema, type Outcome } from '../contract/index.ts';
import { deepFreeze } from '../base/index.ts';
import { fail, ok } from '../contract/index.ts';
import { checkFills, fillsSilently, findSchemaDefault } from './fills.ts';
import { prepareTarget, RESULT_CONVERSION, type ModelTarget } from './targets.ts';
import { modelToolName, TOOL_NAME_RULE } from './tool-name.ts';

/** Who runs the implementation: a local function, an MCP server, or the host itself (a built-in). */
export interface Implementation {
  readonly kind: 'local' | 'mcp' | 'host';
  readonly version: string;
}

/** Where the host reaches a server: a process it starts and speaks to over stdio. */
export interface StdioEndpoint {
  readonly kind: 'stdio';
  /** The launch argv: command and arguments. */
  readonly argv: readonly string[];
  /** The directory the server was started in. */
  readonly cwd: string;
  /** Names of the variables in the server's environment, sorted; values are never recorded. */
  readonly envNames: readonly string[];
}

/**
 * Where the host reaches a server over Streamable HTTP: the URL it POSTs to
 * (as connected to, `${VAR}` expanded: no credentials belong in it) and the
 * names of the headers it adds, sorted; header values are never recorded
 * (they are credentials, redacted wherever caplab writes).
 */
export interface HttpEndpoint {
  readonly kind: 'http';
  readonly url: string;
  readonly headerNames: readonly string[];
}

/** How a server is reached: a process over stdio, or a URL over Streamable HTTP. */
export type ServerEndpoint = StdioEndpoint | HttpEndpoint;

/** The identity of an MCP server instance, as far as the host can know it. */
export interface ServerIdentity {
  /**
   * The name the host gives the server (a `.mcp.json` entry's name; the
   * excerpt task's fixture is `caplab-fixture`): its tools are
   * `mcp__<key>__<tool>` in hooks and permission rules.
   */
  readonly key: string;
  /** `serverInfo.name` as the server reported it: self-reported, recorded, never used to name its tools. */
  readonly name: string;
  /** `serverInfo.version` as the server reported it. */
  readonly version: string;
  readonly protocolVersion: string;
  readonly endpoint: ServerEndpoint;
  readonly instanceId: string;
}

/** Everything a caller relies on in a contract, as plain data (SPEC F-CONTRACT); part of the binding id. */
export interface BoundContract {
  readonly name: string;
  readonly version: string;
  /** Full description: what the model is shown with the call schema. */
  readonly description: string;
  /** Short discovery text. */
  readonly discovery: string;
  readonly effect: Effect;
  /** Who executes, with which credential. */
  readonly identity: string;
  readonly attributes: {
    readonly readOnly: boolean;
    readonly destructive: boolean;
    readonly idempotent: boolean;
    readonly concurrencySafe: boolean;
    readonly openWorld: boolean;
  };
  readonly limits: { readonly timeoutMs: number; readonly maxResultBytes: number };
  readonly preconditions: readonly string[];
  readonly completionEvidence: string;
  readonly errorClasses: readonly ErrorClass[];
  readonly schema: JsonSchema;
  readonly schemaHash: string;
  readonly resultSchema: JsonSchema;
  readonly resultSchemaHash: string;
  /** Fields the program fills when missing (`Contract.fills`); `{}` if none. */
  readonly fills: Readonly<Record<string, unknown>>;
  /** A listed tool's annotations as the server gave them (`Contract.hints`): untrusted, kept, never acted on; absent when the contract has none. */
  readonly hints?: Readonly<Record<string, unknown>>;
  /** How the work completes (`Contract.completion`): absent, synchronously; present only for a background contract. */
  readonly completion?: Completion;
}

/**
 * How a configured server's tool was named: its full name
 * (`mcp__<key>__<tool>`) and the rule (`TOOL_NAME_RULE`) that derived the
 * model-visible name (`Binding.tool`) from it, so a reader can derive it again.
 */
export interface ToolNaming {
  readonly full: string;
  readonly rule: string;
}

/**
 * A binding (SPEC F-BIND): the exact contract, model-facing schema,
 * conversions and implementation a model request was shown. Deep-frozen;
 * `id` is the canonical hash of everything else.
 */
export interface Binding {
  readonly id: string;
  /** The model-visible tool name. */
  readonly tool: string;
  /** A configured server's tool: its full name and the naming rule; absent for every other tool. */
  readonly naming?: ToolNaming;
  readonly contract: BoundContract;
  readonly model: { readonly target: ModelTarget; readonly schema: JsonSchema; readonly schemaHash: string };
  /** Conversion versions; with the schemas they determine conversion completely. */
  readonly conversion: { readonly arguments: string; readonly result: string };
  readonly implementation: Implementation;
  readonly server?: ServerIdentity;
  /** What the host cannot know (e.g. "remote build unknown"). Stated, never papered over. */
  readonly gaps: readonly string[];
}

/** A binding without its id: what the id is computed over. */
export type BindingBody = Omit<Binding, 'id'>;

export interface BindOptions {
  /** Model-visible name; defaults to the model name `naming` derives, else the contract name. */
  readonly tool?: string;
  /** A configured server's tool: its full name, named by `TOOL_NAME_RULE` (another rule, or a `tool` that disagrees, is a programmer error). */
  readonly naming?: ToolNaming;
  /** Model interface; defaults to `plain`. */
  readonly target?: ModelTarget;
  readonly implementation: Implementation;
  readonly server?: ServerIdentity;
  readonly gaps?: readonly string[];
}

/**
 * The binding id: sha256 of the canonical JSON of the whole body (an `id`
 * field, if passed, is ignored).
 */
export function bindingId(body: BindingBody): string {
  return canonicalHash({ ...body, id: undefined });
}

/**
 * Binds a contract for one model target, or says why the target cannot carry
 * it without changing meaning (`precondition`/`unrepresentable`, naming the
 * field), or why the contract's defaults are unsafe (`silent_default`,
 * `invalid_fills`). The contract is only read; the binding is a deep-frozen
 * copy that later changes to the inputs cannot reach.
 *
 * @example
 * const binding = tryBind(updateNoteContract, { target: 'strict', implementation: { kind: 'local', version: '1' } });
 */
export function tryBind(contract: Contract, options: BindOptions): Outcome<Binding> {
  const exported = exportContract(contract);
  const defaultAt = fillsSilently(contract) ? findSchemaDefault(exported.inputSchema) : undefined;
  if (defaultAt !== undefined) {
    const reason = 'a schema default is filled silently by validation; declare it in contract.fills instead';
    return fail('precondition', 'silent_default', `${contract.name}: ${defaultAt}: ${reason}`, [defaultAt, reason]);
  }
  const badFills = checkFills(contract, exported.inputSchema);
  if (badFills) return badFills;
  const target = options.target ?? 'plain';
  const prepared = prepareTarget(target, exported.inputSchema);
  if (!prepared.ok) return fail(prepared.class, prepared.kind, `${contract.name}: ${prepared.message}`, prepared.issues);
  const body: BindingBody = structuredClone({
    tool: toolOf(contract, options),
    ...(options.naming ? { naming: { full: options.naming.full, rule: options.naming.rule } } : {}),
    contract: {
      name: contract.name,
      version: contract.version,
      description: contract.description,
      discovery: contract.discovery,
      effect: contract.effect,
      identity: contract.identity,
      attributes: {
        readOnly: contract.readOnly,
        destructive: contract.destructive,
        idempotent: contract.idempotent,
        concurrencySafe: contract.concurrencySafe,
        openWorld: contract.openWorld,
      },
      limits: { timeoutMs: contract.limits.timeoutMs, maxResultBytes: contract.limits.maxResultBytes },
      preconditions: contract.preconditions,
      completionEvidence: contract.completionEvidence,
      errorClasses: contract.errorClasses,
      schema: exported.inputSchema,
      schemaHash: exported.inputSchemaHash,
      resultSchema: exported.resultSchema,
      resultSchemaHash: exported.resultSchemaHash,
      fills: contract.fills ?? {},
      ...(contract.hints ? { hints: contract.hints } : {}),
      ...(contract.completion ? { completion: contract.completion } : {}),
    },
    model: { target, schema: prepared.value.schema, schemaHash: schemaHash(prepared.value.schema) },
    conversion: { arguments: prepared.value.version, result: RESULT_CONVERSION },
    implementation: options.implementation,
    ...(options.server ? { server: options.server } : {}),
    gaps: options.gaps ?? [],
  });
  return ok(deepFreeze({ id: bindingId(body), ...body }));
}

/** The model-visible name: `naming`'s model name (which a given `tool` must equal), the given `tool`, or the contract's name. */
function toolOf(contract: Contract, options: BindOptions): string {
  if (options.naming === undefined) return options.tool ?? contract.name;
  if (options.naming.rule !== TOOL_NAME_RULE) throw new TypeError(`bind: ${contract.name}: naming rule ${options.naming.rule} is not ${TOOL_NAME_RULE}`);
  const model = modelToolName(options.naming.full);
  if (options.tool !== undefined && options.tool !== model) throw new TypeError(`bind: ${contract.name}: tool ${options.tool} is not ${model}, the model name of ${options.naming.full}`);
  return model;
}

/**
 * Binds a contract whose target is known to carry it (e.g. any contract on
 * `plain`). A refusal here is a programmer error and throws; use `tryBind`
 * or `bindTable` where a target may refuse.
 */
export function bind(contract: Contract, options: BindOptions): Binding {
  const bound = tryBind(contract, options);
  if (!bound.ok) throw new TypeError(`bind: ${bound.kind}: ${bound.message}`);
  return bound.value;
}
