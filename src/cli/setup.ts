import { fail, type Outcome } from '../contract/index.ts';
import { createHost, type HostedTask, type ToolProvider } from '../harness/index.ts';
import type { Io } from './io.ts';
import type { ServerFlags } from './server-flags.ts';
import type { CliTask } from './tasks.ts';

/** Flags shared by demo and run. */
export interface RunFlags {
  readonly transport: 'mcp' | 'local';
  /** The scenario (built-in name or file) whose scripted steps answer the run; absent with `replay`. */
  readonly scenario?: string;
  /** `run --replay FILE`: a file of recorded responses answers the run instead (never with a scenario). */
  readonly replay?: string;
  readonly json: boolean;
  readonly yes: boolean;
  readonly trustProject: boolean;
  readonly allowTools: readonly string[];
  readonly denyTools: readonly string[];
  readonly skillDirs: readonly string[];
  readonly noSkill: boolean;
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
}

/**
 * Builds a run's task (local or over MCP), hooks, permissions, conversion and
 * method from flags, through the library's host (`createHost`): one assembly
 * for the CLI and a library user. A bad input is a usage failure, and so are
 * two tools under one name (`duplicate_tool`), before anything is spawned.
 */
export async function setupRun(flags: RunFlags, scenario: { readonly skill?: string | undefined }, io: Io, cli: CliTask, providers: readonly ToolProvider[] = []): Promise<Outcome<HostedTask>> {
  const task = flags.transport === 'mcp' ? cli.overMcp : cli.task;
  if (!task) return fail('spawn', 'mcp_unavailable', 'the MCP transport is not available in this build');
  const host = createHost({
    cwd: io.cwd,
    env: io.env,
    settings: flags.settings,
    trustProject: flags.trustProject,
    allowTools: flags.allowTools,
    denyTools: flags.denyTools,
    yes: flags.yes,
    skillDirs: flags.skillDirs,
    embeddedSkills: true,
    providers,
  });
  const skill = flags.noSkill ? undefined : (scenario.skill ?? flags.defaultSkill);
  return host.prepare(task, { ...(skill !== undefined ? { skill } : {}), label: `transport ${flags.transport}` });
}
