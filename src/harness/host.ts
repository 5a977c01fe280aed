import { join, resolve } from 'node:path';
import { convertArguments } from '../binding/index.ts';
import { fail, ok, type Outcome } from '../contract/index.ts';
import { systemClock, type Clock } from '../ledger/index.ts';
import { checkNames, hooksFromSettings, parseRules, permissionPolicy, resolveSettings, TOOL_HOOK_EVENTS, type EffectiveSettings, type NameUses, type Rule } from '../pipeline/index.ts';
import { bindPackage, discoverPackages, methodSupport, plainRecord, projectSkillsNotices, type Package } from '../skill/index.ts';
import { TOOL_SEARCH } from './disclosure.ts';
import { builtinOffers, type Builtin } from './host-tools.ts';
import { skillDeniedNotice, toolMode, type ToolMode } from './skill-tool/tool-mode.ts';
import { toolSearch } from './tool-search/tool-search.ts';
import { agentTool } from './agent-tool/agent-tool.ts';
import { agentSetup, agentNotices, checkAgentMatchers } from './agent-tool/agent-host.ts';
import type { Model } from './model.ts';
import { runTask, type RunOptions, type RunOutcome } from './run.ts';
import type { Task } from './task.ts';
import { duplicateName, type OfferedTool, type ToolProvider } from './tools.ts';

/**
 * What a host is made of, as plain data: where it works, the settings files
 * whose hooks and permission rules it applies, rules of its own, method
 * packages and the tools it adds to every task's. A field with a CLI flag of
 * the same meaning (named beside it) takes what that flag gives, and a
 * refusal of it names the flag.
 */
export interface HostOptions {
  /** Where settings files and skill folders are named from, and the hooks' working directory (default: `process.cwd()`). */
  readonly cwd?: string;
  /** Where command hooks read their allowlisted variables from (default: `process.env`; never passed whole). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Settings files (`--settings`), relative to `cwd`, applied in order: every file's rules and hooks added. */
  readonly settings?: readonly string[];
  /** `--trust`: apply `<cwd>/.caplab/settings.json` and read `<cwd>/.claude/skills/` if present (otherwise each is ignored with a notice). */
  readonly trustProject?: boolean;
  /** `--allow-tool` rules. */
  readonly allowTools?: readonly string[];
  /** `--deny-tool` rules: nothing overrides a deny. */
  readonly denyTools?: readonly string[];
  /** `--yes`: what would ask is allowed (there is no prompt: without it, denied). */
  readonly yes?: boolean;
  /** Folders of method packages (`--skills`), relative to `cwd`. */
  readonly skillDirs?: readonly string[];
  /**
   * Also the method packages embedded in caplab (`skills/`, staged for its
   * shipped task; the CLI's). Default false: they are parsed against the
   * task's stages, and a task of other stages would refuse them.
   */
  readonly embeddedSkills?: boolean;
  /** Tool providers every run gets after the task's own (users' servers). */
  readonly providers?: readonly ToolProvider[];
  /** The host's own tools, after every provider's (none ships). */
  readonly builtins?: readonly Builtin[];
  /**
   * Permission rules beyond every settings file (a scenario's `permissions`),
   * applied after them as one more source: deny still wins, and each rule
   * must name a tool of the run as any rule must. `source` names them in a refusal.
   */
  readonly permissions?: HostPermissions;
  /**
   * Tools to defer, by source (`--defer-tool`, a scenario's `defer`): each
   * name is a tool's name as rules name it, or a whole server `mcp__<key>`,
   * and must name a tool of the run; `ToolSearch` itself is refused. A run
   * with any gets the host's ToolSearch.
   */
  readonly defer?: readonly DeferSource[];
  /**
   * Subagent types (`--agents-dir`, a scenario's `agents` and `subagents`): the
   * host's Agent is offered when a folder is given, the trusted project has
   * `./.claude/agents/`, embedded types are named, or `offer` (a scenario
   * scripts subagents) says so.
   */
  readonly agents?: AgentOptions;
}

/** Where a host's subagent types come from, and whether to offer Agent without any. */
export interface AgentOptions {
  /** `--agents-dir` folders, relative to `cwd`. */
  readonly dirs?: readonly string[];
  /** Embedded `fixtures/agents/<name>.md` types (a scenario's `agents`). */
  readonly embedded?: readonly string[];
  /** Offer Agent even with no type file (its `general-purpose` type only). */
  readonly offer?: boolean;
}

/** Names to defer, and where they come from (`--defer-tool`, `scenario defer`), which a refusal names. */
export interface DeferSource {
  readonly source: string;
  readonly names: readonly string[];
}

/** Rules the host adds as one more settings source, and where they come from. */
export interface HostPermissions {
  readonly source: string;
  readonly allow?: readonly string[];
  readonly ask?: readonly string[];
  readonly deny?: readonly string[];
}

/** How one task is to be hosted. */
export interface PrepareOptions {
  /** The method package to adopt, by name; without it, none. */
  readonly skill?: string;
  /** Said in brackets after the refusal of a rule or matcher that names no tool (the CLI's: `transport mcp`). */
  readonly label?: string;
  /**
   * `--skill-mode`: `direct` (the default) puts the named package's text in
   * every request's `system`; `tool` names none, lists every catalogued
   * package in a `<skills>` block and adds the host's Skill tool, which gives
   * a package's text on request. Tool mode with `skill` is refused.
   */
  readonly skillMode?: 'direct' | 'tool';
}

/** What the host assembles for a task: everything `runTask` takes but the run's own options. */
export type HostedRun = Pick<RunOptions, 'task' | 'cwd' | 'hooks' | 'permission' | 'convert'> & Partial<Pick<RunOptions, 'method' | 'providers' | 'builtins' | 'defer' | 'agents'>>;

/**
 * A run's own options on a host: the run id (default: a fresh one), its run
 * dir (default: `caplab-runs/<run id>`, relative to the host's `cwd`), the
 * clock (default: the wall clock), and how it is watched and stopped.
 */
export type HostRunOptions = Omit<RunOptions, keyof HostedRun | 'model' | 'runId' | 'runDir' | 'clock'> & {
  readonly runId?: string;
  readonly runDir?: string;
  readonly clock?: Clock;
};

/** A task checked against a host, nothing spawned yet: what it runs with, what the user should be told, and how to run it. */
export interface HostedTask {
  readonly options: HostedRun;
  /** E.g. an untrusted project settings file that was ignored, a hook matcher that matches no tool. */
  readonly notices: readonly string[];
  run(model: Model, options?: HostRunOptions): Promise<Outcome<RunOutcome>>;
}

/** A host: it checks a task against its settings, rules and packages, and runs it with a model. */
export interface Host {
  /** Checks and assembles a task's run before anything is spawned; a bad input is a usage failure. */
  prepare(task: Task, options?: PrepareOptions): Promise<Outcome<HostedTask>>;
  /** `prepare`, then the prepared run (its notices are `prepare`'s to read). */
  run(task: Task, model: Model, options?: HostRunOptions & PrepareOptions): Promise<Outcome<RunOutcome>>;
}

/**
 * Creates a host (SPEC F-HOST): the assembly `caplab demo`, `run` and `check`
 * run every task through. Each `prepare` reads the settings anew and refuses,
 * before anything is spawned, two tools under one name (`duplicate_tool`), a
 * bad settings file or rule, a rule or `mcp__` hook matcher that names no tool
 * of the run, and a method package that does not bind. The task's own grant
 * (`Task.grant`) is an ordinary allow rule: any deny rule, `denyTools` entry
 * or hook deny still wins over it.
 *
 * @example
 * const run = await createHost({ denyTools: ['create_card'] }).run(task, scriptedModel(scenario));
 */
export function createHost(options: HostOptions = {}): Host {
  const cwd = options.cwd ?? process.cwd();
  const prepare = function prepare(task: Task, use: PrepareOptions = {}): Promise<Outcome<HostedTask>> {
    return prepareTask(options, cwd, task, use);
  };
  return Object.freeze({
    prepare,
    run: async function run(task: Task, model: Model, runOptions: HostRunOptions & PrepareOptions = {}): Promise<Outcome<RunOutcome>> {
      const hosted = await prepare(task, runOptions);
      return hosted.ok ? hosted.value.run(model, runOptions) : hosted;
    },
  });
}

/** The tools a task's providers offer, known before anything is spawned (over MCP, the served ones under their server's name); any run id lists them. */
export function offeredTools(task: Task, runId = 'offers'): readonly OfferedTool[] {
  return task.tools({ runId }).flatMap((provider) => provider.offers);
}

/** The tools a method package may bind to: model-visible name and contract version. */
export function toolVersions(offers: readonly OfferedTool[]): { readonly name: string; readonly version: string }[] {
  return offers.map(({ contract }) => ({ name: contract.name, version: contract.version }));
}

/** A fresh run id: UTC time plus randomness (deterministic runs name their own). */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `run-${stamp}-${crypto.getRandomValues(new Uint8Array(3)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), '')}`;
}

/** The host's checks of one task, in the order a user meets them, and its assembled run. */
async function prepareTask(host: HostOptions, cwd: string, task: Task, use: PrepareOptions): Promise<Outcome<HostedTask>> {
  const defer = parseDefer(host.defer ?? []);
  if (!defer.ok) return defer;
  const skills = { dirs: host.skillDirs ?? [], embedded: host.embeddedSkills ?? false, trust: host.trustProject ?? false };
  const mode = use.skillMode === 'tool' ? skillToolMode(use.skill, skills, task, host, cwd) : undefined;
  if (mode && !mode.ok) return mode;
  const agents = agentSetup(host, cwd);
  if (!agents.ok) return agents;
  const builtins = [...(host.builtins ?? []), ...(defer.value.length > 0 ? [toolSearch()] : []), ...(mode ? [mode.value.builtin] : []), ...(agents.value ? [agentTool(agents.value)] : [])];
  const offers = [...offeredTools(task), ...(host.providers ?? []).flatMap((provider) => provider.offers), ...builtinOffers(builtins)];
  const clash = duplicateName(offers);
  if (!clash.ok) return clash;
  const rules = await hostRules(host, cwd, task);
  if (!rules.ok) return rules;
  const { settings, allow, deny, grant } = rules.value;
  const servers = [...task.tools({ runId: 'offers' }), ...(host.providers ?? [])].flatMap((provider) => provider.servers ?? []);
  const known = checkNames(offers, nameUses(settings, allow, deny, rules.value.extra, defer.value), servers);
  if (!known.ok) return use.label !== undefined ? { ...known, message: `${known.message} [${use.label}]` } : known;
  const typed = checkAgentMatchers(settings, agents.value);
  if (!typed.ok) return typed;
  const fits = task.checkTools?.(offers) ?? ok(undefined);
  if (!fits.ok) return fits;
  const extra = rules.value.extra;
  const policy = permissionPolicy({
    rules: { allow: [...settings.permissions.allow, ...extra.allow, ...grant], ask: [...settings.permissions.ask, ...extra.ask], deny: [...settings.permissions.deny, ...extra.deny] },
    allowFlags: allow,
    denyFlags: deny,
    interactive: false,
    yes: host.yes ?? false,
  });
  const method = mode ? ok(mode.value.method) : adopt(use.skill, skills, task, offers, cwd);
  if (!method.ok) return method;
  const hosted: HostedRun = {
    task,
    cwd,
    hooks: hooksFromSettings(settings, host.env ? { env: host.env } : {}),
    permission: (tool, hook) => policy(tool, hook),
    convert: (binding, args) => convertArguments(binding, args),
    ...(method.value ? { method: method.value } : {}),
    ...(host.providers && host.providers.length > 0 ? { providers: host.providers } : {}),
    ...(builtins.length > 0 ? { builtins } : {}),
    ...(defer.value.length > 0 ? { defer: defer.value.map(({ rule }) => rule) } : {}),
    ...(agents.value ? { agents: agents.value.types.map((t) => ({ name: t.name, kind: t.source, path: t.path, sha256: t.sha256 })) } : {}),
  };
  const skillNotices = projectSkillsNotices({ dirs: skills.dirs.map((dir) => resolve(cwd, dir)), trust: skills.trust, cwd });
  const notices = [...settings.notices, ...skillNotices, ...known.value, ...searchDeniedNotice(defer.value, policy, offers), ...(mode ? skillDeniedNotice(offers, policy) : []), ...typed.value, ...agentNotices(host, cwd, agents.value)];
  return ok({ options: hosted, notices, run: (model, options = {}) => runHosted(hosted, model, options) });
}

/**
 * Every defer name parsed as a rule (`parseRules`: a tool's name, or a whole
 * server `mcp__<key>`), each with where it came from, for `checkNames`;
 * `ToolSearch` is never deferred (`invalid_arguments/not_deferrable`).
 */
export function parseDefer(sources: readonly DeferSource[]): Outcome<readonly { where: string; rule: Rule }[]> {
  const parsed: { where: string; rule: Rule }[] = [];
  for (const { source, names } of sources) {
    const rules = parseRules(names, source);
    if (!rules.ok) return rules;
    for (const [index, rule] of rules.value.entries()) {
      const where = source.startsWith('--') ? `${source}=${rule.text}` : `${source}[${index}] ${JSON.stringify(rule.text)}`;
      if (rule.kind === 'tool' && rule.name === TOOL_SEARCH) return fail('invalid_arguments', 'not_deferrable', `${where}: ToolSearch finds deferred tools and is never deferred itself`);
      parsed.push({ where, rule });
    }
  }
  return ok(parsed);
}

/** A run that defers tools but denies ToolSearch can disclose none of them: said before it runs, not refused. */
function searchDeniedNotice(defer: readonly unknown[], policy: ReturnType<typeof permissionPolicy>, offers: readonly OfferedTool[]): string[] {
  const search = offers.find((offer) => offer.contract.name === TOOL_SEARCH && offer.implementation.kind === 'host');
  if (defer.length === 0 || !search) return [];
  const decision = policy({ binding: search.binding, contract: search.contract, attributes: { readOnly: search.contract.readOnly } });
  return decision.decision === 'deny' ? [`ToolSearch is denied (${decision.reason}): no deferred tool can be disclosed, so none can be called`] : [];
}

/** The host's extra rules, parsed by kind (`HostOptions.permissions`). */
interface ExtraRules {
  readonly source: string;
  readonly allow: readonly Rule[];
  readonly ask: readonly Rule[];
  readonly deny: readonly Rule[];
}

/** The settings in effect and the host's and the task's own rules, each parsed. */
async function hostRules(host: HostOptions, cwd: string, task: Task): Promise<Outcome<{ settings: EffectiveSettings; allow: readonly Rule[]; deny: readonly Rule[]; grant: readonly Rule[]; extra: ExtraRules }>> {
  const settings = await resolveSettings({ trustProject: host.trustProject ?? false, cwd, settingsPaths: host.settings ?? [] });
  if (!settings.ok) return settings;
  const allow = parseRules(host.allowTools ?? [], '--allow-tool');
  if (!allow.ok) return allow;
  const deny = parseRules(host.denyTools ?? [], '--deny-tool');
  if (!deny.ok) return deny;
  const grant = parseRules(task.grant ?? [], 'task grant');
  if (!grant.ok) return grant;
  const extra = extraRules(host.permissions);
  if (!extra.ok) return extra;
  return ok({ settings: settings.value, allow: allow.value, deny: deny.value, grant: grant.value, extra: extra.value });
}

/** `HostOptions.permissions`, each list parsed and named by its source (`<source> permissions.deny[0]: …`). */
function extraRules(permissions: HostPermissions | undefined): Outcome<ExtraRules> {
  const source = permissions?.source ?? 'host';
  const parsed: Record<'allow' | 'ask' | 'deny', readonly Rule[]> = { allow: [], ask: [], deny: [] };
  for (const kind of ['allow', 'ask', 'deny'] as const) {
    const rules = parseRules(permissions?.[kind] ?? [], `${source} permissions.${kind}`);
    if (!rules.ok) return rules;
    parsed[kind] = rules.value;
  }
  return ok({ source, ...parsed });
}

/** Every rule and hook matcher that must name a tool of the run, each with where it came from. */
function nameUses(settings: EffectiveSettings, allow: readonly Rule[], deny: readonly Rule[], extra: ExtraRules, defer: readonly { where: string; rule: Rule }[]): NameUses {
  const rules = settings.permissions;
  const labelled = (list: readonly Rule[], where: (rule: Rule) => string) => list.map((rule) => ({ where: where(rule), rule }));
  return {
    rules: [
      ...(['allow', 'ask', 'deny'] as const).flatMap((kind) => labelled(rules[kind], (rule) => `permissions.${kind} rule ${JSON.stringify(rule.text)}`)),
      ...labelled(allow, (rule) => `--allow-tool=${rule.text}`),
      ...labelled(deny, (rule) => `--deny-tool=${rule.text}`),
      ...(['allow', 'ask', 'deny'] as const).flatMap((kind) => labelled(extra[kind], (rule) => `${extra.source} permissions.${kind} rule ${JSON.stringify(rule.text)}`)),
      ...defer,
    ],
    // A subagent event's matcher names agent types, checked against them (`checkAgentMatchers`).
    matchers: settings.hooks.filter((hook) => TOOL_HOOK_EVENTS.includes(hook.event)).map((hook) => ({ where: `${hook.event} hook matcher ${JSON.stringify(hook.matcher)} (${hook.source})`, matcher: hook.matcher })),
  };
}

/** Runs an assembled task: the run's own options, with the host's defaults for those left out. */
function runHosted(hosted: HostedRun, model: Model, options: HostRunOptions): Promise<Outcome<RunOutcome>> {
  const runId = options.runId ?? newRunId();
  const runDir = resolve(hosted.cwd, options.runDir ?? join('caplab-runs', runId));
  return runTask({ ...options, ...hosted, model, runId, runDir, clock: options.clock ?? systemClock });
}

/**
 * Tool mode's catalog and Skill tool, over every package of every source,
 * bound to the task's and the providers' tools (`toolMode`); a package named
 * to adopt directly is refused (`invalid_arguments/bad_option`).
 */
function skillToolMode(name: string | undefined, found: { dirs: readonly string[]; embedded: boolean; trust: boolean }, task: Task, host: HostOptions, cwd: string): Outcome<ToolMode> {
  if (name !== undefined) return fail('invalid_arguments', 'bad_option', `skill mode tool lists the catalog and adopts no package directly; ${JSON.stringify(name)} was named to adopt`);
  const packages = packagesOf(found, task, cwd, undefined);
  if (!packages.ok) return packages;
  const offers = [...offeredTools(task), ...(host.providers ?? []).flatMap((provider) => provider.offers)];
  return toolMode(packages.value, toolVersions(offers), task, { cwd, nested: found.trust });
}

/** Every package of the host's sources, parsed against the task's stages. */
function packagesOf(found: { dirs: readonly string[]; embedded: boolean; trust: boolean }, task: Task, cwd: string, name: string | undefined): Outcome<readonly Package[]> {
  // Folders are named relative to the host's working directory; a package refused by discovery stops the run only when named.
  return discoverPackages({ dirs: found.dirs.map((dir) => resolve(cwd, dir)), embedded: found.embedded, stages: task.method?.stages ?? [], trust: found.trust, cwd, named: name });
}

/** The method package the run adopts, parsed against the task's stages and bound to its tools (or none). */
function adopt(name: string | undefined, found: { dirs: readonly string[]; embedded: boolean; trust: boolean }, task: Task, offers: readonly OfferedTool[], cwd: string): Outcome<RunOptions['method'] | undefined> {
  const packages = packagesOf(found, task, cwd, name);
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
  const identity = pkg.kind === 'plain' ? { ...plainRecord(pkg), ...(pkg.notApplied.length > 0 ? { not_applied: pkg.notApplied.map(({ field }) => field) } : {}) } : { name: pkg.name, version: pkg.version, hash: pkg.hash };
  return { ...identity, origin: pkg.origin, allowed_tools: pkg.allowedTools, grants: 'nothing: callable tools come from bindings and permissions only' };
}
