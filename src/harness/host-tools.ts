import { bind } from '../binding/index.ts';
import { ok, type Contract, type Failure, type Outcome } from '../contract/index.ts';
import { attributesOf, type CallContext, type PermissionDecision, type RuntimeTool, type ToolAttributes, type ToolOutput } from '../pipeline/index.ts';
import type { AgentInput } from './agent-tool/agent-tool.ts';
import type { AgentType } from './agent-tool/agent-types.ts';
import type { RunNames } from './run-names.ts';
import type { OfferedTool, ToolProvider } from './tools.ts';

/** What the host gives its own tools: the run's tool table, its names, its signal. */
export interface HostServices {
  /** The run's tool table by model-visible name (every provider's tools and the built-ins), once every provider is open. */
  tools(): Readonly<Record<string, RuntimeTool>>;
  /** A scope of the run's names of the built-ins' own (a nested loop's request and action ids). */
  readonly names: RunNames;
  /** Aborted when the run is interrupted. */
  readonly signal: AbortSignal;
  /** What the run's permission policy decides for a tool before any hook (ToolSearch says which deferred tools a call would be denied). */
  permission(tool: RuntimeTool): PermissionDecision;
  /** The run's subagent loops (the Agent built-in's), once the run's own loop runs. */
  readonly nesting?: Nesting;
}

/** Runs a subagent's loop in the run's record, under the loop that called it. */
export interface Nesting {
  run(spec: { readonly input: AgentInput; readonly type: AgentType; readonly context: CallContext }): Promise<Outcome<ToolOutput>>;
}

/**
 * A tool of the host itself (`ToolSearch`; later `Skill`, `Agent`): bound as implementation kind `host`, it takes the same pipeline as
 * every tool (hooks, permissions, stages), is named by its bare name, and its
 * calls are recorded `via: "host"`.
 */
export interface Builtin {
  readonly contract: Contract;
  /** Its implementation's version (part of its binding). */
  readonly version: string;
  readonly attributes?: Partial<ToolAttributes>;
  readonly check?: (input: unknown, context: CallContext, services: HostServices) => Failure | undefined;
  handler(input: unknown, context: CallContext, services: HostServices): Promise<Outcome<ToolOutput>>;
}

/** What the built-ins offer, known before any run (their bare names, kind host). */
export function builtinOffers(builtins: readonly Builtin[]): readonly OfferedTool[] {
  return builtins.map((b) => ({ binding: { tool: b.contract.name }, contract: b.contract, implementation: { kind: 'host', version: b.version } }));
}

/** The built-ins as one provider: offered by their contracts, bound as kind host over the run's services when it opens. */
export function hostProvider(builtins: readonly Builtin[], services: HostServices): ToolProvider {
  return {
    offers: builtinOffers(builtins),
    open: async () => ok({ transport: 'local', tools: builtins.map((b) => hostTool(b, services)), close: async () => undefined }),
  };
}

function hostTool(builtin: Builtin, services: HostServices): RuntimeTool {
  const { check } = builtin;
  return {
    contract: builtin.contract,
    binding: bind(builtin.contract, { implementation: { kind: 'host', version: builtin.version } }),
    attributes: attributesOf(builtin.contract, builtin.attributes),
    ...(check ? { check: (input: unknown, context: CallContext) => check(input, context, services) } : {}),
    handler: (input, context) => builtin.handler(input, context, services),
  };
}
