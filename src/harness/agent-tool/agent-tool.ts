import * as v from 'valibot';
import { fail, type Contract, type Failure } from '../../contract/index.ts';
import type { CallContext } from '../../pipeline/index.ts';
import type { Builtin } from '../host-tools.ts';
import { GENERAL_PURPOSE, WIDENING_MODES, type AgentType, type AgentTypes } from './agent-types.ts';

/** The host's delegating tool, by Claude Code's name (`Task`, its older name, matches it in rules and hooks). */
export const AGENT_TOOL = 'Agent';

/**
 * Claude Code's Agent input: `description` and `prompt` required; `subagent_type`,
 * `model`, `effort`, `name`, `isolation` optional with their enums and pattern;
 * the deprecated `team_name` and `mode` accepted and ignored; `run_in_background`,
 * which earlier builds documented. `model`, `effort`, `name` are recorded, not applied.
 */
export const AgentInput = v.strictObject({
  description: v.pipe(v.string(), v.minLength(1), v.description('A short (3-5 word) description of the task')),
  prompt: v.pipe(v.string(), v.minLength(1), v.description('The task for the agent to perform')),
  subagent_type: v.optional(v.pipe(v.string(), v.description('The type of specialized agent to use for this task'))),
  model: v.optional(v.pipe(v.picklist(['sonnet', 'opus', 'haiku']), v.description('Recorded, not applied: the run has one model'))),
  effort: v.optional(v.pipe(v.picklist(['low', 'medium', 'high', 'max']), v.description('Recorded, not applied'))),
  name: v.optional(v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]{1,64}$/), v.description('Recorded, not applied'))),
  isolation: v.optional(v.pipe(v.picklist(['worktree']), v.description('Refused: caplab has no worktree isolation'))),
  team_name: v.optional(v.pipe(v.string(), v.description('Deprecated; ignored'))),
  mode: v.optional(v.pipe(v.string(), v.description('Deprecated; ignored'))),
  run_in_background: v.optional(v.pipe(v.boolean(), v.description('Refused when true: a subagent runs in the foreground'))),
});
export type AgentInput = v.InferOutput<typeof AgentInput>;

/** What one Agent call gave, as data: the subagent, how it stopped, its counts, and its final text. */
export const AgentResult = v.strictObject({
  agent_id: v.string(),
  agent_type: v.string(),
  stop: v.string(),
  requests: v.number(),
  tool_calls: v.number(),
  text: v.string(),
});
export type AgentResult = v.InferOutput<typeof AgentResult>;

/** The types listed as Claude Code lists them in the tool's description. */
function typeLines(types: AgentTypes): string {
  const lines = types.types.map((t) => `- ${t.name}: ${t.description} (Tools: ${t.tools ? t.tools.join(', ') : 'the caller\'s'})`);
  const refused = types.refused.map((r) => `- ${r.name}: refused (${r.reason.split(':')[0]}); a call naming it is refused`);
  return [...lines, ...refused].join('\n');
}

/** The Agent contract over a run's types: its description lists them. */
export function agentContract(types: AgentTypes) {
  return {
    name: AGENT_TOOL,
    version: '1.0.0',
    discovery: 'Launch a subagent: its own conversation over a narrower set of your tools; you see only its final answer.',
    description:
      'Launch a new agent to handle a task on its own. It starts with your prompt as its only message, may use only the ' +
      'tools its type allows (never more than yours, never Agent), and returns its final text as this call\'s result; ' +
      'nothing it read reaches you unless that text carries it. Available agent types:\n' +
      typeLines(types),
    input: AgentInput,
    result: AgentResult,
    // Agent itself changes nothing: each call its subagent makes is checked (rules, hooks, --yes) on its own.
    effect: 'read',
    readOnly: true,
    destructive: false,
    idempotent: false,
    concurrencySafe: false,
    openWorld: false,
    identity: 'the host; the caller\'s tools and permissions',
    preconditions: ['the type exists and is no wider than the caller', 'the call is not made inside a subagent'],
    limits: { timeoutMs: 600_000, maxResultBytes: 4 * 1024 * 1024 },
    completionEvidence: 'the subagent\'s own records in the same ledger: its requests, responses and calls, its final response',
    errorClasses: ['invalid_arguments', 'permission_denied', 'business', 'precondition', 'timeout', 'closed'],
  } as const satisfies Contract;
}

/** The names a type may call under a producing request's pinned tools: its `tools` (or all of them) minus `disallowedTools` and Agent. */
export function subagentTools(type: AgentType, pinned: readonly string[]): readonly string[] {
  const wanted = type.tools ?? pinned;
  return wanted.filter((name) => name !== AGENT_TOOL && name !== 'Task' && !type.disallowedTools.includes(name));
}

/** Why a type is wider than its caller, each named; empty when it is not. */
export function widerThan(type: AgentType, pinned: readonly string[], servers: readonly string[]): readonly string[] {
  const reasons: string[] = [];
  const lacking = (type.tools ?? []).filter((name) => name !== AGENT_TOOL && name !== 'Task' && !pinned.includes(name));
  if (lacking.length > 0) reasons.push(`tools the caller lacks: ${lacking.join(', ')}`);
  if (type.permissionMode !== undefined && WIDENING_MODES.includes(type.permissionMode)) reasons.push(`permissionMode ${type.permissionMode}`);
  for (const server of type.mcpServers) {
    if (typeof server !== 'string') reasons.push('an inline mcpServers definition');
    else if (!servers.includes(server)) reasons.push(`mcpServers ${server}, which the caller lacks`);
  }
  return reasons;
}

/** The type an Agent call names (or `general-purpose`), or why it cannot run. */
export function typeOf(types: AgentTypes, input: AgentInput): AgentType | Failure {
  const name = input.subagent_type ?? GENERAL_PURPOSE;
  const type = types.types.find((t) => t.name === name);
  if (type) return type;
  const refused = types.refused.find((r) => r.name === name);
  if (refused) return fail('precondition', 'subagent_type_refused', `subagent type ${JSON.stringify(name)} was refused at start (${refused.path}: ${refused.reason}); nothing was started`);
  return fail('invalid_arguments', 'unknown_subagent_type', `no subagent type ${JSON.stringify(name)}; available: ${types.types.map((t) => t.name).join(', ')}`);
}

const isFailure = (x: AgentType | Failure): x is Failure => 'ok' in x && x.ok === false;

/**
 * Refused before a subagent starts: a call made inside a subagent
 * (`subagent_nested`), `isolation` (`isolation_unsupported`), background
 * (`background_unsupported`), an unknown or refused type, a type wider than
 * the caller's pinned tools (`subagent_tools_wider`, naming why), one past
 * `LIMITS.subagentsPerRun` (the runner's).
 */
export function checkAgent(types: AgentTypes, input: unknown, context: Pick<CallContext, 'request'>): Failure | undefined {
  const call = input as AgentInput;

  if (call.isolation !== undefined) return fail('precondition', 'isolation_unsupported', `isolation ${JSON.stringify(call.isolation)}: caplab runs a subagent in the caller's working directory only, so nothing was started`);
  const type = typeOf(types, call);
  if (isFailure(type)) return type;
  if (call.run_in_background === true || type.background) {
    return fail('precondition', 'background_unsupported', `${call.run_in_background === true ? 'run_in_background: true' : `type ${type.name} says background: true`}: a subagent runs in the foreground only, so nothing was started`);
  }
  const pinned = Object.keys(context.request.bindings);
  const servers = [...new Set(Object.values(context.request.bindings).flatMap((b) => (b.server ? [b.server.key] : [])))];
  const wider = widerThan(type, pinned, servers);
  if (wider.length > 0) return fail('precondition', 'subagent_tools_wider', `subagent type ${type.name} is wider than its caller (${wider.join('; ')}); nothing was started`);
  return undefined;
}

/**
 * The host's Agent: a non-concurrency-safe built-in whose handler runs the
 * subagent's own loop in the same record (the run's `nesting`), and answers
 * with its final text.
 */
export function agentTool(types: AgentTypes): Builtin {
  return {
    contract: agentContract(types),
    version: '1.0.0',
    attributes: { concurrencySafe: false },
    check: (input, context) => checkAgent(types, input, context),
    handler: async (input, context, services) => {
      const type = typeOf(types, input as AgentInput);
      if (isFailure(type)) return type;
      if (!services.nesting) return fail('precondition', 'subagent_type_refused', 'this host runs no subagent loop; nothing was started');
      return services.nesting.run({ input: input as AgentInput, type, context });
    },
  };
}
