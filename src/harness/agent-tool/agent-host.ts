import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fail, ok, type Outcome } from '../../contract/index.ts';
import { matches, TOOL_HOOK_EVENTS, type EffectiveSettings } from '../../pipeline/index.ts';
import { discoverAgentTypes, PROJECT_AGENTS, type AgentTypes } from './agent-types.ts';

/** What the host reads of its subagent options (`HostOptions.agents`, `trustProject`). */
interface AgentHostOptions {
  readonly agents?: { readonly dirs?: readonly string[]; readonly embedded?: readonly string[]; readonly offer?: boolean };
  readonly trustProject?: boolean;
}

/**
 * The run's subagent types, when the host offers Agent: a folder given, the
 * trusted project's `./.claude/agents/`, embedded types named, or `offer`;
 * undefined when it offers none. Refused before anything runs as
 * `discoverAgentTypes` refuses (a folder that cannot be listed, two files of one type).
 */
export function agentSetup(host: AgentHostOptions, cwd: string): Outcome<AgentTypes | undefined> {
  const dirs = host.agents?.dirs ?? [];
  const embedded = host.agents?.embedded ?? [];
  const project = host.trustProject === true && existsSync(resolve(cwd, PROJECT_AGENTS));
  if (dirs.length === 0 && embedded.length === 0 && !project && host.agents?.offer !== true) return ok(undefined);
  return discoverAgentTypes({ dirs, embedded, trust: host.trustProject ?? false, cwd });
}

/** An untrusted project's subagent folder is not read: said, not refused. */
export function agentNotices(host: AgentHostOptions, cwd: string, types: AgentTypes | undefined): readonly string[] {
  const project = resolve(cwd, PROJECT_AGENTS);
  const untrusted = host.trustProject !== true && existsSync(project) ? [`ignored untrusted project subagents ${project} (no type in it was read; pass --trust, or --agents-dir ${PROJECT_AGENTS}, to read them)`] : [];
  const refused = (types?.refused ?? []).map((r) => `subagent type ${r.name} (${r.path}) refused: ${r.reason}; an Agent call naming it is refused`);
  return [...untrusted, ...refused];
}

/**
 * SubagentStart and SubagentStop hook matchers name agent types: in a run
 * that offers Agent, one that matches no type is
 * `invalid_arguments/unknown_subagent_type` (exit 2); in a run without it
 * such a hook never runs, and that is said.
 */
export function checkAgentMatchers(settings: Pick<EffectiveSettings, 'hooks'>, types: AgentTypes | undefined): Outcome<readonly string[]> {
  const hooks = settings.hooks.filter((hook) => !TOOL_HOOK_EVENTS.includes(hook.event));
  if (hooks.length === 0) return ok([]);
  if (!types) return ok(hooks.map((hook) => `${hook.event} hook (${hook.source}) never runs: this run offers no Agent`));
  const names = [...types.types.map((t) => t.name), ...types.refused.map((r) => r.name)];
  const unknown = hooks.filter((hook) => !names.some((name) => matches(hook.matcher, name)));
  if (unknown.length === 0) return ok([]);
  const where = unknown.map((hook) => `${hook.event} hook matcher ${JSON.stringify(hook.matcher)} (${hook.source})`);
  return fail('invalid_arguments', 'unknown_subagent_type', `${where.join('; ')}: names no subagent type of this run (${names.join(', ')})`, where);
}
