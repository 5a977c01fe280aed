import { join } from 'node:path';
import { builtinScenarioNames, loadScenario, recheckAcceptance, type RunOutcome, type Scenario } from '../harness/index.ts';
import { verify } from '../ledger/index.ts';
import type { Executed } from './run-command.ts';

/** One check case: a scenario over a transport, and how it must end. */
export interface CheckCase {
  readonly id: string;
  readonly scenario: Scenario;
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
}

/**
 * The cases `caplab check` runs: the demo over MCP and over the local path,
 * every built-in negative scenario locally, and same-batch over MCP too
 * (changing the transport must not remove a check).
 */
export function checkCases(): CheckCase[] {
  const demos: CheckCase[] = [];
  const cases: CheckCase[] = [];
  for (const name of builtinScenarioNames()) {
    const scenario = loadScenario(name);
    if (!scenario.ok) throw new Error(`built-in scenario ${name} is invalid: ${scenario.message}`);
    if (name === 'happy') {
      demos.push({ id: 'demo-mcp', scenario: scenario.value, transport: 'mcp' }, { id: 'demo-local', scenario: scenario.value, transport: 'local' });
    } else {
      cases.push({ id: `${name}-local`, scenario: scenario.value, transport: 'local' });
      if (name === 'same-batch') cases.push({ id: `${name}-mcp`, scenario: scenario.value, transport: 'mcp' });
    }
  }
  return [...demos, ...cases];
}

function describeExpectation(scenario: Scenario): string {
  const e = scenario.expect;
  if (e.accepted) return 'accepted';
  return `not accepted${e.failure ? `, ${e.failure.class}/${e.failure.kind}` : ''}${e.card === false ? ', no card' : ''}`;
}

/**
 * Judges a run against its scenario's expectation, from the run itself and
 * from an offline verification of its run dir (so a run whose record does
 * not verify never counts as expected).
 */
export function judge(item: CheckCase, executed: Executed): CheckResult {
  const base = { id: item.id, scenario: item.scenario.name, transport: item.transport, expected: describeExpectation(item.scenario) };
  if (!executed.ok) {
    const f = executed.failure;
    return { ...base, observed: `did not run: ${f.class}/${f.kind}`, passed: false, failure: { class: f.class, kind: f.kind, message: f.message } };
  }
  const outcome: RunOutcome = executed.outcome;
  const failures = outcome.loop.calls.flatMap((c) => (c.outcome.ok ? [] : [c.outcome]));
  const expect = item.scenario.expect;
  const wanted = expect.failure;
  const matched = wanted ? failures.find((f) => f.class === wanted.class && f.kind === wanted.kind) : undefined;
  const shown = matched ?? failures[0];
  const card = outcome.loop.receipt !== undefined;
  const verified = verify(outcome.runDir, { recheck: recheckAcceptance, expectedHead: outcome.head });
  const observed = [
    outcome.loop.accepted ? 'accepted' : 'not accepted',
    ...(shown ? [`${shown.class}/${shown.kind}`] : []),
    card ? 'card' : 'no card',
    verified.ok ? 'record verifies' : `record fails: ${verified.kind}`,
  ].join(', ');
  const passed =
    outcome.loop.accepted === expect.accepted &&
    (wanted === undefined || matched !== undefined) &&
    (expect.card === undefined || expect.card === card) &&
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

/** The run dir of one case under the check's folder. */
export function caseDir(root: string, item: CheckCase): string {
  return join(root, item.id);
}
