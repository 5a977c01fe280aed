import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import { inert } from '../base/index.ts';
import { fail, LIMITS, ok, readBoundedText, type Failure, type Outcome } from '../contract/index.ts';
import { endingOfFailure, loadReplay, newRunId, readScenario, scenarioTask, originLabel, replayModel, runReport, scriptedModel, summaryOf, type HostedTask, type LoadedScenario, type LoopStep, type Model, type ModelOrigin, type Replay, type RunEnding, type RunOutcome, type Scenario, type ServerEnd } from '../harness/index.ts';
import { clockFromEnv, openRunDir, type Clock, type RunDir } from '../ledger/index.ts';
import { EXIT, exitCodeOf, interrupted } from './exit.ts';
import { paint, type Io, type Paint } from './io.ts';
import { EMPTY_SKILLS, repeatedFlag } from './flags.ts';
import { checkOutDir, checkRunId } from './paths.ts';
import { failureText, renderEnding, renderStep } from './render.ts';
import type { StartedConfig } from './configured.ts';
import { SERVER_OPTIONS, serverFlags } from './server-flags.ts';
import { setupRun, type RunFlags, type ScenarioRun } from './setup.ts';
import { scenarioTaskOf, type CliTask } from './tasks.ts';

const RUN_OPTIONS = {
  transport: { type: 'string' },
  out: { type: 'string' },
  'run-id': { type: 'string' },
  json: { type: 'boolean' },
  settings: { type: 'string', multiple: true },
  trust: { type: 'boolean' },
  'trust-project': { type: 'boolean' }, // the older name of --trust
  'allow-tool': { type: 'string', multiple: true },
  'deny-tool': { type: 'string', multiple: true },
  'defer-tool': { type: 'string', multiple: true },
  yes: { type: 'boolean' },
  skills: { type: 'string', multiple: true },
  'agents-dir': { type: 'string', multiple: true },
  'no-skill': { type: 'boolean' },
  'skill-mode': { type: 'string' },
  scenario: { type: 'string' },
  replay: { type: 'string' },
  durable: { type: 'boolean' },
  ...SERVER_OPTIONS,
  help: { type: 'boolean', short: 'h' }, // answered by cli() before these flags are parsed
} as const;

/** A flag the command cannot take: a usage error, its message the line the CLI prints. */
export const badFlag = (message: string): Failure => fail('invalid_arguments', 'bad_flag', message);

/** Parses demo/run flags into plain data, or a usage error. The task gives `demo` its scenario and its method package. */
export function parseRunFlags(args: readonly string[], command: 'demo' | 'run', cli: Pick<CliTask, 'scenarios' | 'task'>): Outcome<RunFlags> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: RUN_OPTIONS, strict: true, allowPositionals: false });
  } catch (error) {
    return badFlag((error as Error).message);
  }
  const repeated = repeatedFlag(args, RUN_OPTIONS);
  if (repeated) return badFlag(repeated);
  const v = parsed.values;
  const transport = v.transport ?? 'mcp';
  if (transport !== 'mcp' && transport !== 'local' && transport !== 'http') return badFlag(`--transport must be mcp, local or http, got ${JSON.stringify(transport)}`);
  const badId = v['run-id'] !== undefined ? checkRunId(v['run-id']) : undefined;
  if (badId) return badId;
  if (v.out === '') return badFlag('--out needs a folder; an empty path would mean the working directory');
  if (v.skills?.includes('')) return badFlag(EMPTY_SKILLS);
  if (v['agents-dir']?.includes('')) return badFlag('--agents-dir needs a folder; an empty path would mean the working directory');
  const skillMode = v['skill-mode'];
  if (skillMode !== undefined && skillMode !== 'direct' && skillMode !== 'tool') return badFlag(`--skill-mode must be direct or tool, got ${JSON.stringify(skillMode)}`);
  const responses = responsesFlag(command, v.scenario, v.replay, cli.scenarios.demo);
  const skill = cli.task.method?.skill;
  if ('ok' in responses) return responses;
  const servers = serverFlags(v);
  if (!servers.ok) return servers;
  const configured = servers.value.mcpConfig !== undefined;
  if (command === 'demo' && (configured || v['startup-timeout-ms'] !== undefined || v['timeout-ms'] !== undefined)) {
    return badFlag('demo runs the task alone; use `caplab run --mcp-config FILE` to add your servers');
  }
  return ok({
    transport,
    ...responses,
    json: v.json ?? false,
    yes: v.yes ?? false,
    trustProject: (v.trust ?? false) || (v['trust-project'] ?? false),
    allowTools: v['allow-tool'] ?? [],
    denyTools: v['deny-tool'] ?? [],
    deferTools: v['defer-tool'] ?? [],
    skillDirs: v.skills ?? [],
    ...(v['agents-dir'] ? { agentDirs: v['agents-dir'] } : {}),
    noSkill: v['no-skill'] ?? false,
    ...(skillMode !== undefined ? { skillMode } : {}),
    ...(v.out !== undefined ? { out: v.out } : {}),
    ...(v['run-id'] !== undefined ? { runId: v['run-id'] } : {}),
    ...(command === 'demo' && skill !== undefined ? { defaultSkill: skill } : {}),
    ...(v.durable ? { durable: true } : {}),
    ...(configured ? { servers: servers.value } : {}),
    ...(v.transport !== undefined ? { transportNamed: true as const } : {}),
    settings: v.settings ?? [],
  });
}

/** What answers a demo or run: the scenario named (demo: the task's), or `--replay FILE` (run only, never with a scenario). */
function responsesFlag(command: 'demo' | 'run', scenario: string | undefined, replay: string | undefined, demo: string): { scenario: string } | { replay: string } | Failure {
  if (command === 'demo' && (scenario !== undefined || replay !== undefined)) {
    return badFlag(`demo runs the ${demo} scenario; use \`caplab run --scenario\` or \`caplab run --replay\` for others`);
  }
  if (scenario !== undefined && replay !== undefined) return badFlag('--scenario and --replay both say what answers the run; give one');
  if (replay === '') return badFlag('--replay needs a file');
  if (replay !== undefined) return { replay };
  if (command === 'run' && scenario === undefined) return badFlag('run needs --scenario NAME|FILE or --replay FILE');
  return { scenario: scenario ?? demo };
}

/** What answers a run — a model the CLI built — the method package its scenario names, if any, and what else the scenario asks of its run. */
export interface RunModel {
  readonly model: Model;
  readonly skill?: string;
  readonly scenario?: ScenarioRun;
}

/** A scenario's scripted steps as a run's model, with what the scenario asks of its run (its task is `scenarioAnswers`' to build). */
export function scripted(scenario: Scenario): RunModel {
  const run: ScenarioRun = {
    name: scenario.name,
    ...(scenario.max_requests !== undefined ? { maxRequests: scenario.max_requests } : {}),
    ...(scenario.permissions ? { permissions: scenario.permissions } : {}),
    ...(scenario.servers ? { servers: scenario.servers } : {}),
    ...(scenario.defer ? { defer: scenario.defer } : {}),
    ...('skill_mode' in scenario && scenario.skill_mode !== undefined ? { skillMode: scenario.skill_mode } : {}),
    ...(scenario.agents ? { agents: scenario.agents } : {}),
    ...(scenario.subagents ? { subagents: true as const } : {}),
  };
  return { model: scriptedModel(scenario), ...('skill' in scenario && scenario.skill !== undefined ? { skill: scenario.skill } : {}), scenario: run };
}

/**
 * A loaded scenario as a run's model and, when it names a task other than
 * the commands' (the expectations task), that task built from its text,
 * after the task's own checks of the file; flags that do not apply to such
 * a scenario are usage errors (`--transport`, `--skills`, `--no-skill`).
 */
export async function scenarioAnswers(loaded: LoadedScenario, flags: Pick<RunFlags, 'transportNamed' | 'skillDirs' | 'noSkill'>): Promise<Outcome<RunModel>> {
  const answers = scripted(loaded.scenario);
  const ofScenario = await scenarioTaskOf(scenarioTask(loaded.scenario));
  if (!ofScenario) return ok(answers);
  const flag = flags.transportNamed ? '--transport' : flags.skillDirs.length > 0 ? '--skills' : flags.noSkill ? '--no-skill' : undefined;
  if (flag) return badFlag(`${flag} does not apply to scenario ${loaded.scenario.name} (task ${scenarioTask(loaded.scenario)}): its tools are its servers', and it adopts no method package`);
  const task = ofScenario(loaded.scenario, new TextEncoder().encode(loaded.text));
  return task.ok ? ok({ ...answers, scenario: { ...answers.scenario!, task: task.value } }) : task;
}

/** A replay file's recorded responses as a run's model (a replay names no method package). */
export function replayed(replay: Replay): RunModel {
  return { model: replayModel(replay) };
}

/** A run's result, or why it could not run (with how it ended, which gives its exit code). */
export type Executed = { readonly ok: true; readonly outcome: RunOutcome } | NotRun;

/** Why a run could not run or finish: how it ended, and the failure that says why. */
export type NotRun = { readonly ok: false; readonly ending: RunEnding; readonly failure: Failure };

/** A run whose every check passed and whose run dir is taken: nothing printed, nothing spawned yet. */
export interface PreparedRun {
  readonly flags: RunFlags;
  readonly model: Model;
  readonly runId: string;
  readonly run: RunDir;
  readonly clock: Clock;
  /** The task as the host assembled it: run it with `setup.run(model, …)`. */
  readonly setup: HostedTask;
  /** The users' servers started for this run (`--mcp-config`), and what the user is told about them. */
  readonly configured?: StartedConfig;
  /** The scenario's `max_requests` (default: the loop's 8). */
  readonly maxRequests?: number;
}

const notRun = (ending: RunEnding, failure: Failure): NotRun => ({ ok: false, ending, failure });
/** A usage error, found before any work. */
const refused = (failure: Failure): NotRun => notRun({ type: 'refused', failure }, failure);

/**
 * Checks everything a run needs and takes its run dir (created, its ledger
 * opened), before any output and any spawn: a bad path, flag or file is a
 * usage error before anything is printed or started, and of two runs racing
 * for one folder exactly one gets it (the ledger is created exclusively).
 */
export async function prepareRun(flags: RunFlags, answers: RunModel, io: Io, cli: CliTask): Promise<{ readonly ok: true; readonly prepared: PreparedRun } | NotRun> {
  const clock = clockFromEnv(io.env);
  if (!clock.ok) return refused(clock);
  const runId = flags.runId ?? newRunId();
  const runDir = resolve(io.cwd, flags.out ?? join('caplab-runs', runId));
  const badOut = checkOutDir(runDir, flags.out !== undefined ? '--out' : 'run dir');
  if (badOut) return refused(badOut);
  const configured = await startServers(flags, answers.scenario, io, runId);
  if (configured && !configured.ok) return configured;
  const started = configured?.value;
  const prepared = await prepareStarted(flags, answers, io, cli, { runId, runDir, clock: clock.value, ...(started ? { configured: started } : {}) });
  // Whatever stopped the run before it began, the servers started for it stop too.
  if (!prepared.ok) await started?.servers.close();
  return prepared;
}

/**
 * Everything `prepareRun` checks but taking the run dir: the servers the run
 * would start are started and closed again, so the host's checks of their
 * tools (rule names, the task's `checkTools`) run too. A usage refusal, or
 * undefined (a server that does not start is the run's to report, later).
 * `check --scenarios` checks every file so before its first case.
 */
export async function preflight(flags: RunFlags, answers: RunModel, io: Io, cli: CliTask): Promise<Failure | undefined> {
  const configured = await startServers(flags, answers.scenario, io, flags.runId ?? newRunId());
  if (configured && !configured.ok) return configured.ending.type === 'refused' ? configured.failure : undefined;
  try {
    const setup = await setupRun(flags, { skill: answers.skill, run: answers.scenario }, io, cli, configured ? [configured.value.servers.provider] : []);
    return setup.ok ? undefined : setup;
  } finally {
    await configured?.value.servers.close();
  }
}

/** `--mcp-config`: the users' servers, started before anything of the run exists; or why the run cannot go on (usage: 2; a required server: 3). */
async function startServers(flags: RunFlags, scenario: ScenarioRun | undefined, io: Io, runId: string): Promise<{ readonly ok: true; readonly value: StartedConfig } | NotRun | undefined> {
  const servers = flags.servers;
  const named = scenario?.servers;
  if (servers?.mcpConfig === undefined) {
    return named ? refused(badFlag(`scenario ${scenario!.name} names servers (${named.join(', ')}); give --mcp-config FILE, the config that has them`)) : undefined;
  }
  // Loaded only here, so a run without --mcp-config evaluates nothing of the configured servers' path (test/module-graph.test.ts).
  const { startConfigured } = await import('./configured.ts');
  const only = named ? { only: { keys: named, by: `scenario ${scenario!.name} servers` } } : {};
  const started = await startConfigured({ ...servers, mcpConfig: servers.mcpConfig, ...only }, flags.trustProject, io, runId);
  if (started.ok) return started;
  const { refusal } = started;
  return 'usage' in refusal ? refused(refusal.usage) : notRun({ type: 'protocol_failure', failure: refusal.required }, refusal.required);
}

/** The rest of `prepareRun`, once the servers (if any) started: the host's checks, then the run dir. */
async function prepareStarted(flags: RunFlags, answers: RunModel, io: Io, cli: CliTask, at: { runId: string; runDir: string; clock: Clock; configured?: StartedConfig }): Promise<{ readonly ok: true; readonly prepared: PreparedRun } | NotRun> {
  const setup = await setupRun(flags, { skill: answers.skill, run: answers.scenario }, io, cli, at.configured ? [at.configured.servers.provider] : []);
  if (!setup.ok) return refused(setup);
  // Interrupted before this run began (check's later scenarios): no run dir is made.
  if (io.interrupt?.aborted) {
    return notRun(interrupted(io.interrupt), fail('precondition', 'run_interrupted', `interrupted by ${String(io.interrupt.reason)} before the run started`));
  }
  const run = openRunDir(at.runDir, { clock: at.clock, durable: flags.durable ?? false });
  if (!run.ok) return run.class === 'invalid_arguments' || run.kind === 'target_exists' ? refused(run) : notRun({ type: 'failed', at: 'run', failure: run }, run);
  const maxRequests = answers.scenario?.maxRequests;
  return { ok: true, prepared: { flags, model: answers.model, runId: at.runId, run: run.value, clock: at.clock, setup: setup.value, ...(maxRequests !== undefined ? { maxRequests } : {}), ...(at.configured ? { configured: at.configured } : {}) } };
}

/** Runs a prepared run: tools, hooks, the loop, the record. */
export async function startRun(prepared: PreparedRun, io: Io, onStep?: (step: LoopStep) => void): Promise<Executed> {
  try {
    return await runPrepared(prepared, io, onStep);
  } finally {
    // The run closed them with its tools; this closes what a run that never opened its tools left (idempotent).
    const ends = (await prepared.configured?.servers.close()) ?? [];
    for (const notice of addedNotices(ends)) io.stderr(`caplab: ${inert(notice)}\n`);
  }
}

/** Tools a server listed only when it re-listed after list_changed: never bound, said once the run ended (run_end records them). */
function addedNotices(ends: readonly ServerEnd[]): string[] {
  return ends.flatMap((end) => {
    const added = [...new Set(end.list_changed.relists.flatMap((relist) => relist.added))];
    return added.length === 0 ? [] : [`server ${end.key} listed ${added.length} new tool(s) after list_changed (${added.slice(0, 8).join(', ')}${added.length > 8 ? ', …' : ''}); they were not bound: a run binds what a server listed when it started`];
  });
}

async function runPrepared(prepared: PreparedRun, io: Io, onStep?: (step: LoopStep) => void): Promise<Executed> {
  const { flags, model, runId, run, setup } = prepared;
  for (const notice of [...(prepared.configured?.notices ?? []), ...setup.notices]) io.stderr(`caplab: ${inert(notice)}\n`);
  const outcome = await setup.run(model, {
    runId,
    runDir: run.dir,
    opened: run,
    clock: prepared.clock,
    durable: flags.durable ?? false,
    ...(prepared.maxRequests !== undefined ? { maxRequests: prepared.maxRequests } : {}),
    ...(onStep ? { onStep } : {}),
    ...(io.interrupt ? { signal: io.interrupt } : {}),
  });
  if (outcome.ok) return { ok: true, outcome: outcome.value };
  return outcome.kind === 'target_exists' ? refused(outcome) : notRun(endingOfFailure(outcome), outcome);
}

/**
 * Sets up and runs one scenario or replay: clock, run id and dir, tools, hooks,
 * permissions, method. Shared by demo, run and check.
 */
export async function execute(flags: RunFlags, answers: RunModel, io: Io, cli: CliTask, onStep?: (step: LoopStep) => void): Promise<Executed> {
  const prepared = await prepareRun(flags, answers, io, cli);
  return prepared.ok ? startRun(prepared.prepared, io, onStep) : prepared;
}

/** `caplab demo` and `caplab run`: one scenario or replay, streamed or as one JSON document. */
export async function runCommand(flags: RunFlags, io: Io, cli: CliTask): Promise<number> {
  const colours = paint(io);
  const answers = await loadAnswers(flags, io, cli);
  if (!answers.ok) {
    io.stderr(`caplab: ${answers.class}/${answers.kind}: ${answers.message}\n`);
    return EXIT.usage;
  }
  const { model } = answers.value;
  // The header comes only once every check has passed: a usage error prints nothing on stdout.
  const prepared = await prepareRun(flags, answers.value, io, cli);
  if (!prepared.ok) return reportNotRun(prepared, flags, io, model.origin);
  if (!flags.json) io.stdout(header(flags, answers.value, colours));
  const artifact = (answers.value.scenario?.task ?? cli.task).artifact?.name ?? 'artifact';
  const executed = await startRun(prepared.prepared, io, (step) => {
    if (flags.json) return;
    const line = renderStep(step, colours);
    if (line) io.stdout(`${line}\n`);
  });
  if (!executed.ok) return reportNotRun(executed, flags, io, model.origin);
  if (flags.json) io.stdout(`${JSON.stringify(runReport(executed.outcome, artifact), null, 2)}\n`);
  else io.stdout(`\n${renderEnding(executed.outcome, colours, artifact)}\n`);
  const { runDir, ending } = executed.outcome;
  if (ending.type === 'interrupted') {
    io.stderr(`caplab: ${summaryOf(ending)}: new work stopped, hooks and servers terminated; the run is recorded as interrupted in ${runDir}\n`);
  }
  return exitCodeOf(ending);
}

/**
 * The run's model from its flags: the replay file, read and checked whole, or
 * the scenario (demo's when none is named). Files are named relative to the
 * caller's working directory (io.cwd), as --out is.
 */
async function loadAnswers(flags: RunFlags, io: Io, { scenarios }: Pick<CliTask, 'scenarios'>): Promise<Outcome<RunModel>> {
  if (flags.replay !== undefined) {
    const replay = loadReplay(flags.replay, io.cwd);
    return replay.ok ? { ok: true, value: replayed(replay.value) } : replay;
  }
  const loaded = readScenario(scenarios.folder, flags.scenario ?? scenarios.demo, (path) => readBoundedText(resolve(io.cwd, path), LIMITS.scenarioBytes));
  return loaded.ok ? scenarioAnswers(loaded.value, flags) : loaded;
}

/** How the header names each transport. */
const TRANSPORT_LINES: Readonly<Record<RunFlags['transport'], string>> = {
  mcp: 'over MCP (stdio, 2025-06-18)',
  http: 'over MCP (Streamable HTTP, 2025-06-18)',
  local: 'with local tools',
};

/** The two lines a human run starts with: transport (or the scenario's servers) and what answers, then how the model is labelled. */
function header(flags: RunFlags, { model, scenario }: RunModel, colours: Paint): string {
  const transport = scenario?.task ? `${scenario.task.id} on your servers (${(scenario.servers ?? []).join(', ')})` : TRANSPORT_LINES[flags.transport];
  if (model.origin === 'scripted') {
    return `caplab ${transport} — scenario ${model.record.scenario}\n${colours.dim('model: scripted (replayed responses; usage is synthetic)')}\n`;
  }
  return `caplab ${transport} — replay ${inert(flags.replay ?? '')}\n${colours.dim(`model: ${inert(model.name)} (recorded responses, one per request; usage as recorded in the file)`)}\n`;
}

/** Says why a run did not run (one JSON document with --json, always one stderr line) and returns its code. */
function reportNotRun({ failure, ending }: NotRun, flags: RunFlags, io: Io, origin: ModelOrigin): number {
  const code = exitCodeOf(ending);
  if (flags.json) io.stdout(`${JSON.stringify({ accepted: false, ...originLabel(origin), error: { class: failure.class, kind: failure.kind, message: failure.message, ...(failure.basis ? { basis: failure.basis } : {}) }, exit_code: code }, null, 2)}\n`);
  io.stderr(`caplab: ${failureText(failure)}\n`);
  return code;
}
