import { recheckAcceptance, summaryOf, type Task } from '../harness/index.ts';
import { verify } from '../ledger/index.ts';
import { callEffectViolation, readCallEffects, type CallEffects } from './check-effects.ts';
import type { CaseCheck, CheckResult } from './check.ts';
import type { Executed } from './run-command.ts';

/** An expectations case of `check --scenarios`: its id (the file's stem), its scenario's name, the task built from the file. */
export interface ExpectationsCase {
  readonly id: string;
  readonly scenario: string;
  /** The expectations task built from the scenario file (`RunModel.scenario.task`): its recheck re-computes the checks. */
  readonly task: Task;
  /** How many checks its expectations make (one per expected outcome, pointer, output_valid and end field). */
  readonly checkCount: number;
}

const listed = (checks: readonly CaseCheck[]): CaseCheck[] => checks.map(({ id, verdict, condition, evidence }) => ({ id, verdict, condition, evidence }));

/**
 * Judges an expectations case: it passed iff the run completed (its loop
 * reached a verdict), it ended accepted (every expectation holds, and no
 * call's outcome is unknown nor a server's transport failed: those end a run
 * exit 4 or 3 whatever was expected), its
 * run dir verifies with the task's recheck (so the checks are re-computed
 * from the recorded bytes, never taken from the run's word), and the
 * per-call side-effect rule holds (`callEffectViolation`, read back from
 * the run dir). The result lists every check with its verdict and evidence.
 */
export function judgeExpectations(item: ExpectationsCase, executed: Executed): CheckResult {
  const base = {
    id: item.id,
    scenario: item.scenario,
    transport: 'mcp' as const,
    expected: `every expectation holds (${item.checkCount} checks), record verifies, each call's handler entered at most once`,
  };
  if (!executed.ok) {
    const f = executed.failure;
    return { ...base, observed: `did not run: ${f.class}/${f.kind}`, passed: false, failure: { class: f.class, kind: f.kind, message: f.message } };
  }
  const { outcome } = executed;
  const { loop } = outcome;
  const checks = listed(loop.checks);
  const failed = checks.filter((check) => check.verdict !== 'pass');
  const completed = loop.stop !== 'interrupted' && loop.stop !== 'failed';
  const verified = verify(outcome.runDir, { recheck: recheckAcceptance(item.task), expectedHead: outcome.head });
  const effects = readEffects(outcome.runDir);
  const violation = effects ? callEffectViolation(effects) : undefined;
  const observed = [
    ...(completed ? [] : [`did not complete: ${loop.stop}${loop.failure ? ` (${loop.failure.class}/${loop.failure.kind})` : ''}`]),
    ...(completed && failed.length === 0 ? [`all ${checks.length} checks pass`] : failed.map((check) => `${check.id}: ${check.evidence}`)),
    ...(completed && outcome.ending.type !== 'accepted' && outcome.ending.type !== 'not_accepted' ? [`ended ${summaryOf(outcome.ending)}`] : []),
    ...(violation ? [violation] : []),
    verified.ok ? 'record verifies' : `record fails: ${verified.kind}`,
  ].join(', ');
  const passed = completed && outcome.ending.type === 'accepted' && failed.length === 0 && violation === undefined && verified.ok;
  const failure = loop.failure ?? (verified.ok ? undefined : verified);
  return {
    ...base,
    observed,
    passed,
    ...(failure && !passed ? { failure: { class: failure.class, kind: failure.kind, message: failure.message } } : {}),
    runDir: outcome.runDir,
    head: outcome.head,
    checks,
  };
}

function readEffects(runDir: string): CallEffects | undefined {
  try {
    return readCallEffects(runDir);
  } catch {
    // A ledger or response file that cannot be read already fails verification, which the report shows.
    return undefined;
  }
}
