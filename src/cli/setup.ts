import { fail, ok, type Outcome } from '../contract/index.ts';
import { createHost, type DeferSource, type HostedTask, type HostPermissions, type ScenarioPermissions, type Task, type ToolProvider } from '../harness/index.ts';
import type { Io } from './io.ts';
import type { ServerFlags } from './server-flags.ts';
import type { CliTask } from './tasks.ts';

/** Flags shared by demo and run. */
export interface RunFlags {
  /** Where read_source runs: the fixture server over stdio (`mcp`) or over Streamable HTTP (`http`), or in-process (`local`). */
  readonly transport: 'mcp' | 'local' | 'http';
  /** The scenario (built-in name or file) whose scripted steps answer the run; absent with `replay`. */
  readonly scenario?: string;
  /** `run --replay FILE`: a file of recorded responses answers the run instead (never with a scenario). */
  readonly replay?: string;
  readonly json: boolean;
  readonly yes: boolean;
  readonly trustProject: boolean;
  readonly allowTools: readonly string[];
  readonly denyTools: readonly string[];
  /** `--defer-tool=NAME`, repeatable: tools sent deferred, found through ToolSearch. */
  readonly deferTools: readonly string[];
  readonly skillDirs: readonly string[];
  /** `--agents-dir DIR`, repeatable: subagent type files the host's Agent offers. */
  readonly agentDirs?: readonly string[];
  readonly noSkill: boolean;
  /** `--skill-mode direct|tool` (absent: the scenario's `skill_mode`, else direct). */
  readonly skillMode?: 'direct' | 'tool';
  /** The method package to adopt when the scenario names none (demo and check: the task's). */
  readonly defaultSkill?: string;
  readonly out?: string;
  readonly runId?: string;
  /** `--settings FILE`, repeatable: applied in order, every file's rules and hooks added. */
  readonly settings: readonly string[];
  /** `--durable`: fsync every event and file as it is written, not once at the end. */
  readonly durable?: boolean;
  /** `run --mcp-config FILE` and its companions: users' servers, started before the run dir opens. */
  readonly servers?: ServerFlags;
  /** Set when `--transport` was given (a scenario of its own task refuses it). */
  readonly transportNamed?: true;
}

/** What a scenario file asks of its run beyond its responses: its own task, its request bound, its rules, its servers. */
export interface ScenarioRun {
  readonly name: string;
  /** The task the scenario names when it is not the commands' (the expectations task), built from the file. */
  readonly task?: Task;
  readonly maxRequests?: number;
  readonly permissions?: ScenarioPermissions;
  /** Config keys: only these start, each required. */
  readonly servers?: readonly string[];
  /** Tools the scenario defers (its `defer`), after `--defer-tool`'s. */
  readonly defer?: readonly string[];
  /** The scenario's `skill_mode`. */
  readonly skillMode?: 'direct' | 'tool';
  /** The embedded subagent types the scenario lists (its `agents`). */
  readonly agents?: readonly string[];
  /** The scenario scripts subagents: the run offers Agent. */
  readonly subagents?: true;
}

/**
 * Builds a run's task (local or over MCP, or the scenario's own), hooks,
 * permissions (the scenario's rules last), conversion and method from flags,
 * through the library's host (`createHost`): one assembly for the CLI and a
 * library user. A bad input is a usage failure, and so are two tools under
 * one name (`duplicate_tool`), before anything is spawned.
 */
export async function setupRun(flags: RunFlags, scenario: { readonly skill?: string | undefined; readonly run?: ScenarioRun | undefined }, io: Io, cli: CliTask, providers: readonly ToolProvider[] = []): Promise<Outcome<HostedTask>> {
  const own = scenario.run?.task;
  const task = own ?? (flags.transport === 'mcp' ? cli.overMcp : flags.transport === 'http' ? cli.overHttp : cli.task);
  if (!task) return fail('spawn', 'mcp_unavailable', `the ${flags.transport === 'http' ? 'MCP HTTP' : 'MCP'} transport is not available in this build`);
  const permissions = scenario.run?.permissions;
  const host = createHost({
    cwd: io.cwd,
    env: io.env,
    settings: flags.settings,
    trustProject: flags.trustProject,
    allowTools: flags.allowTools,
    denyTools: flags.denyTools,
    yes: flags.yes,
    skillDirs: flags.skillDirs,
    // A scenario's own task has no stages: caplab's packages, staged for the commands' task, are not its.
    embeddedSkills: own === undefined,
    providers,
    ...(permissions ? { permissions: hostPermissions(`scenario ${scenario.run!.name}`, permissions) } : {}),
    defer: deferSources(flags.deferTools, scenario.run),
    agents: { dirs: flags.agentDirs ?? [], embedded: scenario.run?.agents ?? [], offer: scenario.run?.subagents === true },
  });
  const mode = skillModeOf(flags, scenario.run);
  if (!mode.ok) return mode;
  // Tool mode names no package to adopt: the task's default is listed in the catalog instead.
  const skill = flags.noSkill || own ? undefined : mode.value === 'tool' ? scenario.skill : (scenario.skill ?? flags.defaultSkill);
  const label = own ? `scenario ${scenario.run!.name}` : `transport ${flags.transport}`;
  return host.prepare(task, { ...(skill !== undefined ? { skill } : {}), label, ...(mode.value === 'tool' ? { skillMode: 'tool' as const } : {}) });
}

/** The run's skill mode: `--skill-mode`, else the scenario's `skill_mode`, else direct; the two disagreeing is a usage error. */
function skillModeOf(flags: RunFlags, run: ScenarioRun | undefined): Outcome<'direct' | 'tool'> {
  if (flags.skillMode !== undefined && run?.skillMode !== undefined && flags.skillMode !== run.skillMode) {
    return fail('invalid_arguments', 'bad_flag', `--skill-mode ${flags.skillMode}: scenario ${run.name} says skill_mode ${JSON.stringify(run.skillMode)}`);
  }
  const mode = flags.skillMode ?? run?.skillMode ?? 'direct';
  if (mode === 'tool' && flags.noSkill) return fail('invalid_arguments', 'bad_flag', '--no-skill and --skill-mode tool (or a scenario\'s skill_mode "tool"): tool mode lists the catalog for the model to call; give one');
  return ok(mode);
}

/** What the run defers: `--defer-tool`'s names, then the scenario's `defer`, each source named for a refusal. */
function deferSources(flags: readonly string[], run: ScenarioRun | undefined): DeferSource[] {
  return [...(flags.length > 0 ? [{ source: '--defer-tool', names: flags }] : []), ...(run?.defer ? [{ source: `scenario ${run.name} defer`, names: run.defer }] : [])];
}

/** A scenario's rules as the host's extra source (lists it left out stay out). */
function hostPermissions(source: string, rules: ScenarioPermissions): HostPermissions {
  return { source, ...(rules.allow ? { allow: rules.allow } : {}), ...(rules.ask ? { ask: rules.ask } : {}), ...(rules.deny ? { deny: rules.deny } : {}) };
}
