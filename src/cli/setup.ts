import { resolve } from 'node:path';
import { convertArguments } from '../binding/index.ts';
import { fail, ok, type Outcome } from '../contract/index.ts';
import type { OfferedTool, RunOptions, Scenario, Task } from '../harness/index.ts';
import { duplicateName } from '../harness/index.ts';
import { checkNames, parseRules, permissionPolicy, type Rule } from '../pipeline/permissions/index.ts';
import { hooksFromSettings, resolveSettings } from '../pipeline/settings/index.ts';
import { bindPackage, discoverPackages, methodSupport, plainRecord, type Package } from '../skill/index.ts';
import type { Io } from './io.ts';
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
}

export interface RunSetup {
  /** The task as the transport runs it (over MCP: its served tools from its server), and what the host runs it with. */
  readonly run: Pick<RunOptions, 'task' | 'hooks' | 'permission' | 'convert'> & Partial<Pick<RunOptions, 'method'>>;
  readonly notices: readonly string[];
}

/** The tools a method package may bind to: model-visible name and contract version. */
export function toolVersions(offers: readonly OfferedTool[]): { readonly name: string; readonly version: string }[] {
  return offers.map(({ contract }) => ({ name: contract.name, version: contract.version }));
}

/**
 * The tools a task's providers offer, known before anything is spawned (over
 * MCP, the served ones under their server's name). Offers do not depend on
 * the run, so any run id lists them. A test compares this with what a run binds.
 */
export function offeredTools(task: Task, runId = 'offers'): readonly OfferedTool[] {
  return task.tools({ runId }).flatMap((provider) => provider.offers);
}

/**
 * Builds a run's task (local or over MCP), hooks, permissions, conversion and
 * method from flags; a bad input is a usage failure, and so are two tools
 * under one name (`duplicate_tool`), before anything is spawned. The task's
 * own grant (`Task.grant`) is an ordinary allow rule: any deny rule,
 * `--deny-tool` or hook deny still wins over it.
 */
export async function setupRun(flags: RunFlags, scenario: Pick<Scenario, 'skill'>, io: Io, cli: CliTask): Promise<Outcome<RunSetup>> {
  const task = flags.transport === 'mcp' ? cli.overMcp : cli.task;
  if (!task) return fail('spawn', 'mcp_unavailable', 'the MCP transport is not available in this build');
  const offers = offeredTools(task);
  const clash = duplicateName(offers);
  if (!clash.ok) return clash;
  const settings = await resolveSettings({ trustProject: flags.trustProject, cwd: io.cwd, settingsPaths: flags.settings });
  if (!settings.ok) return settings;
  const allowFlags = parseRules(flags.allowTools, '--allow-tool');
  if (!allowFlags.ok) return allowFlags;
  const denyFlags = parseRules(flags.denyTools, '--deny-tool');
  if (!denyFlags.ok) return denyFlags;
  const taskGrant = parseRules(task.grant ?? [], 'task grant');
  if (!taskGrant.ok) return taskGrant;
  const rules = settings.value.permissions;
  const labelled = (list: readonly Rule[], where: (rule: Rule) => string) => list.map((rule) => ({ where: where(rule), rule }));
  const known = checkNames(offers, {
    rules: [
      ...(['allow', 'ask', 'deny'] as const).flatMap((kind) => labelled(rules[kind], (rule) => `permissions.${kind} rule ${JSON.stringify(rule.text)}`)),
      ...labelled(allowFlags.value, (rule) => `--allow-tool=${rule.text}`),
      ...labelled(denyFlags.value, (rule) => `--deny-tool=${rule.text}`),
    ],
    matchers: settings.value.hooks.map((hook) => ({ where: `${hook.event} hook matcher ${JSON.stringify(hook.matcher)} (${hook.source})`, matcher: hook.matcher })),
  });
  if (!known.ok) return { ...known, message: `${known.message} [transport ${flags.transport}]` };
  const policy = permissionPolicy({
    rules: { ...rules, allow: [...rules.allow, ...taskGrant.value] },
    allowFlags: allowFlags.value,
    denyFlags: denyFlags.value,
    interactive: false,
    yes: flags.yes,
  });

  const method = adopt(flags, scenario, task, offers, io.cwd);
  if (!method.ok) return method;
  return ok({
    run: {
      task,
      hooks: hooksFromSettings(settings.value, { env: io.env }),
      permission: (tool, hook) => policy(tool, hook),
      convert: (binding, args) => convertArguments(binding, args),
      ...(method.value ? { method: method.value } : {}),
    },
    notices: [...settings.value.notices, ...known.value],
  });
}

/** The method package the run adopts, parsed against the task's stages and bound to its tools (or none). */
function adopt(flags: RunFlags, scenario: Pick<Scenario, 'skill'>, task: Task, offers: readonly OfferedTool[], cwd: string): Outcome<RunOptions['method'] | undefined> {
  const name = flags.noSkill ? undefined : (scenario.skill ?? flags.defaultSkill);
  // Folders are named relative to the caller's working directory (io.cwd).
  const packages = discoverPackages({ dirs: flags.skillDirs.map((dir) => resolve(cwd, dir)), stages: task.method?.stages ?? [] });
  if (!packages.ok) return packages;
  if (name === undefined) return ok(undefined);
  const pkg = packages.value.find((p) => p.name === name);
  if (!pkg) return fail('invalid_arguments', 'unknown_skill', `no method package named ${JSON.stringify(name)} (have: ${packages.value.map((p) => p.name).join(', ')})`);
  const bound = bindPackage(pkg, toolVersions(offers));
  if (!bound.ok) return bound;
  const support = methodSupport(bound.value);
  return ok({
    blocks: support.blocks,
    adoption: (stage, payload) => {
      const adopted = support.adoption(stage, payload);
      return adopted.ok ? adopted.value : { error: { class: adopted.class, kind: adopted.kind, message: adopted.message } };
    },
    record: methodRecord(pkg),
  });
}

/**
 * What run_start records of the adopted package. A plain one is named by its
 * body (`plain: true` at the top level, so the record's format can say it).
 */
function methodRecord(pkg: Package): Readonly<Record<string, unknown>> {
  const identity = pkg.kind === 'plain' ? { ...plainRecord(pkg), ...(pkg.notApplied.length > 0 ? { not_applied: pkg.notApplied } : {}) } : { name: pkg.name, version: pkg.version, hash: pkg.hash };
  return { ...identity, origin: pkg.origin, allowed_tools: pkg.allowedTools, grants: 'nothing: callable tools come from bindings and permissions only' };
}
