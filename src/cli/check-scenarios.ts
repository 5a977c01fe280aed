import { readdirSync, type Dirent } from 'node:fs';
import { join, resolve } from 'node:path';
import { fail, LIMITS, ok, readBoundedText, type Failure, type Outcome } from '../contract/index.ts';
import { readScenario, type ExpectationsScenario, type Scenario } from '../harness/index.ts';
import { caseFlags, judge, type CheckResult } from './check.ts';
import { judgeExpectations } from './check-expectations.ts';
import type { Io } from './io.ts';
import { checkRunId, usageFailure } from './paths.ts';
import { scenarioAnswers, type Executed, type RunModel } from './run-command.ts';
import type { ServerFlags } from './server-flags.ts';
import type { RunFlags } from './setup.ts';
import type { CliTask } from './tasks.ts';

/** What `check --scenarios DIR` runs: files named so, sorted by name, in DIR itself (not below it). */
export const SCENARIO_SUFFIX = '.scenario.json';

/** One case of a check: the run's flags and model, and how its run is judged. */
export interface RunnableCase {
  readonly id: string;
  readonly flags: RunFlags;
  readonly answers: RunModel;
  /** The scenario file it runs, when it is a file of `--scenarios` (a refusal names it). */
  readonly file?: string;
  judge(executed: Executed): CheckResult;
}

/** What a check of a folder of scenarios is given: the folder as typed, the servers' flags, how its cases are named and where they run. */
export interface ScenariosCheck {
  readonly dir: string;
  readonly servers: ServerFlags;
  readonly root: string;
  readonly checkId: string;
  readonly durable: boolean;
  /** `--defer-tool`: deferred in every scenario's run. */
  readonly deferTools?: readonly string[];
}

const refuse = (kind: 'bad_scenario' | 'too_many_scenarios' | 'no_scenarios', message: string): Failure => fail('invalid_arguments', kind, message);

/**
 * The cases of `check --scenarios DIR`: every `*.scenario.json` of DIR
 * (sorted by name, not recursive), each read (bounded), parsed and built
 * (an expectations scenario's task, after its file checks) and its servers
 * checked against `--mcp-config` — all before the first case runs, so a bad
 * file is a usage error naming it, with no run dir made and no server
 * started. An entry named so that is not a regular file (a symlink, a
 * folder) is refused, not skipped: the user meant it to run. A case's id is
 * its file's stem; it runs in its own run dir under the check's root.
 */
export async function scenarioCases(check: ScenariosCheck, io: Io, cli: CliTask): Promise<Outcome<readonly RunnableCase[]>> {
  const names = scenarioFiles(check.dir, io.cwd);
  if (!names.ok) return names;
  const cases: RunnableCase[] = [];
  for (const name of names.value) {
    const file = join(check.dir, name);
    const built = await buildCase(check, file, name.slice(0, -SCENARIO_SUFFIX.length), io, cli);
    if (!built.ok) return built.message.startsWith(file) ? built : fail(built.class, built.kind, `${file}: ${built.message}`);
    cases.push(built.value);
  }
  return ok(cases);
}

/** The names of DIR's scenario files, sorted; or why DIR cannot be checked. */
function scenarioFiles(dir: string, cwd: string): Outcome<readonly string[]> {
  let entries: Dirent[];
  try {
    entries = readdirSync(resolve(cwd, dir), { withFileTypes: true });
  } catch (error) {
    return usageFailure('bad_path', `--scenarios ${dir}: not a folder caplab can read (${(error as { code?: string }).code ?? 'error'})`);
  }
  const named = entries.filter((entry) => entry.name.endsWith(SCENARIO_SUFFIX)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (named.length === 0) return refuse('no_scenarios', `--scenarios ${dir}: no *${SCENARIO_SUFFIX} file in the folder (files below it are not read)`);
  if (named.length > LIMITS.checkScenarios) {
    return refuse('too_many_scenarios', `--scenarios ${dir}: ${named.length} *${SCENARIO_SUFFIX} files, more than ${LIMITS.checkScenarios} (LIMITS.checkScenarios)`);
  }
  const odd = named.find((entry) => !entry.isFile());
  if (odd) return refuse('bad_scenario', `${join(dir, odd.name)}: a ${odd.isSymbolicLink() ? 'symlink' : odd.isDirectory() ? 'folder' : 'special file'}, not a regular file; check --scenarios runs regular files only`);
  return ok(named.map((entry) => entry.name));
}

/** One file read, parsed and built into its case, its servers checked against the config: nothing started. */
async function buildCase(check: ScenariosCheck, file: string, id: string, io: Io, cli: CliTask): Promise<Outcome<RunnableCase>> {
  const runId = `${check.checkId}-${id}`;
  const badId = checkRunId(runId, 'its case id');
  if (badId) return refuse('bad_scenario', `the case id ${JSON.stringify(runId)} (the check id and the file's stem) is not a run id: ${badId.message}`);
  const text = readBoundedText(resolve(io.cwd, file), LIMITS.scenarioBytes, { noFollow: true });
  if (!text.ok) return text;
  const loaded = readScenario(cli.scenarios.folder, file, () => text);
  if (!loaded.ok) return loaded;
  const answers = await scenarioAnswers(loaded.value, { skillDirs: [], noSkill: false });
  if (!answers.ok) return answers;
  const scenario = loaded.value.scenario;
  const servers = await serversRefusal(scenario, check.servers, io);
  if (servers) return servers;
  const item = { id, scenario, transport: 'mcp' as const };
  const flags: RunFlags = {
    ...caseFlags(cli, item, check.root, runId),
    ...(check.durable ? { durable: true } : {}),
    deferTools: check.deferTools ?? [],
    // Only a scenario that names servers starts any, and only those (prepareRun passes them as `only`).
    ...(scenario.servers ? { servers: check.servers } : {}),
  };
  const task = answers.value.scenario?.task;
  if (scenario.task === 'expectations' && task) {
    const expectations = { id, scenario: scenario.name, task, checkCount: checkCount(scenario) };
    return ok({ id, flags, answers: answers.value, file, judge: (executed) => judgeExpectations(expectations, executed) });
  }
  if (scenario.task === 'expectations') throw new Error(`scenario ${scenario.name}: the expectations task was not built`);
  return ok({ id, flags, answers: answers.value, file, judge: (executed) => judge(cli, { id, scenario, transport: 'mcp' }, executed) });
}

/** Why a scenario's servers cannot start from the check's flags: none configured, or a key the config lacks. */
async function serversRefusal(scenario: Scenario, servers: ServerFlags, io: Io): Promise<Failure | undefined> {
  const keys = scenario.servers;
  if (!keys) return undefined;
  if (servers.mcpConfig === undefined) return fail('invalid_arguments', 'bad_flag', `scenario ${scenario.name} names servers (${keys.join(', ')}); give --mcp-config FILE, the config that has them`);
  // Loaded only here: a check of scenarios naming no server reads no config.
  const { configRefusal } = await import('./configured.ts');
  return configRefusal({ ...servers, mcpConfig: servers.mcpConfig, only: { keys, by: `scenario ${scenario.name} servers` } }, io);
}

/** How many checks an expectations scenario's `expect` makes: per call its outcome, each value, output_valid; then each end field. */
function checkCount(scenario: ExpectationsScenario): number {
  const calls = Object.values(scenario.expect.calls).reduce((n, call) => n + 1 + Object.keys(call.values ?? {}).length + (call.output_valid ? 1 : 0), 0);
  const end = scenario.expect.end;
  return calls + (end?.calls !== undefined ? 1 : 0) + (end?.stop !== undefined ? 1 : 0);
}
