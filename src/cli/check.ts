import { join } from 'node:path';
import { builtinScenarioNames, loadScenario, recheckAcceptance, withNested, type AcceptanceCheck, type ExcerptScenario, type RunOutcome } from '../harness/index.ts';
import { verify } from '../ledger/index.ts';
import { effectViolation, readRunEffects, type RunEffects } from './check-effects.ts';
import type { Executed } from './run-command.ts';
import type { RunFlags } from './setup.ts';
import type { CliTask } from './tasks.ts';

/** One check case: a scenario over a transport, and how it must end. */
export interface CheckCase {
  readonly id: string;
  readonly scenario: ExcerptScenario;
  readonly transport: 'mcp' | 'local';
}

/** What a case was expected to do and what it did. */
export interface CheckResult {
  readonly id: string;
  readonly scenario: string;
  readonly transport: 'mcp' | 'local';
  readonly expected: string;
  readonly observed: string;
  readonly passed: boolean;
  /** The observed failure class/kind (or why the run could not run), for reports. */
  readonly failure?: { readonly class: string; readonly kind: string; readonly message: string };
  readonly runDir?: string;
  readonly head?: string;
  /** An expectations case's acceptance checks, each with its verdict and what was observed (`check --scenarios`). */
  readonly checks?: readonly CaseCheck[];
}

/** One acceptance check of a case as the reports list it. */
export interface CaseCheck {
  readonly id: string;
  readonly verdict: AcceptanceCheck['verdict'];
  readonly condition: string;
  readonly evidence: string;
}

/**
 * The cases `caplab check` runs: the task's demo scenario over MCP and over
 * the local path, every other built-in scenario locally, and those the task
 * names (`TaskScenarios.overMcp`: changing the transport must not remove a
 * check) over MCP as well.
 */
export function checkCases(cli: Pick<CliTask, 'scenarios'>): CheckCase[] {
  const { folder, demo, overMcp } = cli.scenarios;
  const demos: CheckCase[] = [];
  const cases: CheckCase[] = [];
  for (const name of builtinScenarioNames(folder)) {
    const scenario = loadScenario(folder, name);
    if (!scenario.ok) throw new Error(`built-in scenario ${name} is invalid: ${scenario.message}`);
    if (scenario.value.task === 'expectations') throw new Error(`built-in scenario ${name} is not the task's`);
    if (name === demo) {
      demos.push({ id: 'demo-mcp', scenario: scenario.value, transport: 'mcp' }, { id: 'demo-local', scenario: scenario.value, transport: 'local' });
    } else {
      cases.push({ id: `${name}-local`, scenario: scenario.value, transport: 'local' });
      if (overMcp.includes(name)) cases.push({ id: `${name}-mcp`, scenario: scenario.value, transport: 'mcp' });
    }
  }
  return [...demos, ...cases];
}

const pair = (f: { readonly class: string; readonly kind: string }): string => `${f.class}/${f.kind}`;

/** Refusals in call order, a run of equal ones shown once with a count: `a/b ×8, a/c`. */
function listRefusals(refusals: readonly { readonly class: string; readonly kind: string }[]): string {
  if (refusals.length === 0) return 'no refusal';
  const runs: { text: string; count: number }[] = [];
  for (const text of refusals.map(pair)) {
    const last = runs.at(-1);
    if (last?.text === text) last.count += 1;
    else runs.push({ text, count: 1 });
  }
  return `refused: ${runs.map((r) => (r.count > 1 ? `${r.text} ×${r.count}` : r.text)).join(', ')}`;
}

function describeExpectation(scenario: ExcerptScenario, artifact: string): string {
  const e = scenario.expect;
  const refusals = e.failures ? [listRefusals(e.failures)] : [];
  const failure = e.failure ? [pair(e.failure)] : [];
  const made = e.card === undefined ? [] : [e.card ? artifact : `no ${artifact}`];
  return [e.accepted ? 'accepted' : 'not accepted', ...failure, ...refusals, ...made, `at most one ${artifact}, no repeated side effect`].join(', ');
}

/**
 * Judges a run against its scenario's expectation, from the run itself and
 * from an offline verification of its run dir with the task's recheck (so a
 * run whose record does not verify never counts as expected).
 */
export function judge(cli: Pick<CliTask, 'task'>, item: CheckCase, executed: Executed): CheckResult {
  const { task } = cli;
  const artifact = task.artifact?.name ?? 'artifact';
  const base = { id: item.id, scenario: item.scenario.name, transport: item.transport, expected: describeExpectation(item.scenario, artifact) };
  if (!executed.ok) {
    const f = executed.failure;
    return { ...base, observed: `did not run: ${f.class}/${f.kind}`, passed: false, failure: { class: f.class, kind: f.kind, message: f.message } };
  }
  const outcome: RunOutcome = executed.outcome;
  // Every level's calls, in record order: a refusal inside a subagent is the run's too.
  const failures = withNested(outcome.loop.calls, outcome.loop.subagents).flatMap((c) => (c.outcome.ok ? [] : [c.outcome]));
  const expect = item.scenario.expect;
  const wanted = expect.failure;
  const matched = wanted ? failures.find((f) => f.class === wanted.class && f.kind === wanted.kind) : undefined;
  const shown = matched ?? failures[0];
  const verified = verify(outcome.runDir, { recheck: recheckAcceptance(task), expectedHead: outcome.head });
  // The artifact and the side effects are read back from the run dir, not taken from the run's own account;
  // they are read even when the record fails to verify, so the report says what is there.
  const effects = readEffects(outcome.runDir, task.artifact?.folder);
  const violation = effects ? effectViolation(effects, task.artifact?.folder ?? '') : undefined;
  const made = effects !== undefined && effects.artifactFiles > 0;
  const refusalsMatch = expect.failures === undefined || failures.map(pair).join(' ') === expect.failures.map(pair).join(' ');
  const observed = [
    outcome.loop.accepted ? 'accepted' : 'not accepted',
    ...(expect.failures !== undefined ? [listRefusals(failures)] : shown ? [pair(shown)] : []),
    made ? artifact : `no ${artifact}`,
    ...(violation ? [violation] : []),
    verified.ok ? 'record verifies' : `record fails: ${verified.kind}`,
  ].join(', ');
  const passed =
    outcome.loop.accepted === expect.accepted &&
    (wanted === undefined || matched !== undefined) &&
    refusalsMatch &&
    (expect.card === undefined || expect.card === made) &&
    violation === undefined &&
    verified.ok;
  return {
    ...base,
    observed,
    passed,
    ...(shown ? { failure: { class: shown.class, kind: shown.kind, message: shown.message } } : {}),
    runDir: outcome.runDir,
    head: outcome.head,
  };
}

function readEffects(runDir: string, folder: string | undefined): RunEffects | undefined {
  try {
    return readRunEffects(runDir, folder);
  } catch {
    // A ledger that cannot be read as its events already fails verification, which the report shows.
    return undefined;
  }
}

/** A case as its run dir and flags need it: its id, its scenario's name, its transport. */
export type CaseName = Pick<CheckCase, 'id' | 'transport'> & { readonly scenario: { readonly name: string } };

/** The run dir of one case under the check's folder. */
export function caseDir(root: string, item: Pick<CheckCase, 'id'>): string {
  return join(root, item.id);
}

/** The flags `caplab check` runs a case with: JSON, no permission prompt, the task's method package, nothing else. */
export function caseFlags(cli: Pick<CliTask, 'task'>, item: CaseName, root: string, runId: string, transport: CheckCase['transport'] = item.transport): RunFlags {
  const skill = cli.task.method?.skill;
  return {
    transport,
    scenario: item.scenario.name,
    json: true,
    yes: false,
    trustProject: false,
    allowTools: [],
    denyTools: [],
    deferTools: [],
    skillDirs: [],
    noSkill: false,
    settings: [],
    ...(skill !== undefined ? { defaultSkill: skill } : {}),
    out: caseDir(root, item),
    runId,
  };
}
