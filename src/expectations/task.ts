import { fail, ok, type Outcome, type Success } from '../contract/index.ts';
import { parseScenario, type AcceptanceCheck, type ExpectationsScenario, type RecordedRun, type Scenario, type Task, type TaskRecheck } from '../harness/index.ts';
import { eventAt } from '../harness/index.ts';
import { failAt, type VerifyFailure } from '../ledger/index.ts';
import { expectationChecks, type ValidateOutput } from './checks.ts';
import { liveObserved, recordedObserved } from './observed.ts';
import { checkOutputTools, checkScripted } from './scenario-checks.ts';

/** The task's id: what `run_start.task` records and a scenario's `task` names. */
export const EXPECTATIONS_TASK = 'expectations';

/** Where a run keeps the scenario it ran (role `scenario`), by the scenario's name. */
export const scenarioCopy = (name: string): string => `scenario/${name}.json`;

const RULE = 'Call the tools of the configured servers as the user asks; answer in text when done.';

/**
 * The expectations task (SPEC F-TASK, its second real task): no sources,
 * stages, artifact or tools of its own — its tools are the servers its
 * scenario names, added by the host. The prompt is the scenario's
 * description; run_start references the scenario file as run (`file`, its
 * bytes as read), and the host keeps every success's data, so acceptance —
 * one check per expectation — is re-computed by `verify` from the record.
 */
export function expectationsTask(scenario: ExpectationsScenario, file: Uint8Array, validate: ValidateOutput): Task {
  return {
    ...expectationsRecheck(validate),
    prompt: { user: scenario.description, rule: RULE },
    tools: () => [],
    start: () => ({ files: [{ path: scenarioCopy(scenario.name), role: 'scenario', bytes: file }], fields: {} }),
    checkTools: (offers) => checkOutputTools(scenario, offers),
    acceptance: {
      live: (run) => ({ checks: expectationChecks(scenario.expect, liveObserved(run), validate), files: [], fields: {} }),
      recorded: (run) => recordedChecks(run, validate),
    },
  };
}

/** The task of one scenario file, after what the file alone says it cannot check (`checkScripted`); another task's scenario is refused. */
export function taskOfScenario(scenario: Scenario, file: Uint8Array, validate: ValidateOutput): Outcome<Task> {
  if (scenario.task !== EXPECTATIONS_TASK) return fail('invalid_arguments', 'bad_scenario', `scenario ${scenario.name} is not an expectations scenario`);
  const scripted = checkScripted(scenario);
  return scripted.ok ? ok(expectationsTask(scenario, file, validate)) : scripted;
}

/** The task as `verify` needs it: its recheck, from the scenario copy and the record alone. */
export function expectationsRecheck(validate: ValidateOutput): TaskRecheck {
  return { id: EXPECTATIONS_TASK, keepsResults: true, acceptance: { live: () => ({ checks: [], files: [], fields: {} }), recorded: (run) => recordedChecks(run, validate) } };
}

/** The checks re-computed from the recorded scenario copy, call events, result files and run_end. */
function recordedChecks(run: RecordedRun, validate: ValidateOutput): Success<readonly AcceptanceCheck[]> | VerifyFailure {
  const scenario = recordedScenario(run);
  if ('ok' in scenario) return scenario;
  const observed = recordedObserved(run);
  if ('ok' in observed) return observed;
  return ok(expectationChecks(scenario.expect, observed, validate));
}

/** The scenario run_start references: one file of role `scenario` at the run's scenario's copy, parsing as an expectations scenario of that name. */
function recordedScenario(run: RecordedRun): ExpectationsScenario | VerifyFailure {
  const name = run.start['scenario'];
  const refs = (run.start.files ?? []).filter((file) => file.role === 'scenario');
  const mismatch = (message: string): VerifyFailure => failAt('scenario_mismatch', message, eventAt(run.start));
  if (typeof name !== 'string' || refs.length !== 1 || refs[0]!.path !== scenarioCopy(name)) {
    return mismatch(`run_start must reference exactly one scenario file, ${typeof name === 'string' ? scenarioCopy(name) : 'at its scenario name'} (found ${refs.map((r) => r.path).join(', ') || 'none'})`);
  }
  const bytes = run.readFile(refs[0]!.path);
  if (!bytes.ok) return failAt(bytes.kind, bytes.message, eventAt(run.start));
  const parsed = parseScenario(new TextDecoder().decode(bytes.value), refs[0]!.path);
  if (!parsed.ok) return mismatch(`${parsed.message}`);
  if (parsed.value.task !== EXPECTATIONS_TASK || parsed.value.name !== name) return mismatch(`${refs[0]!.path} is not the expectations scenario ${JSON.stringify(name)}`);
  return parsed.value;
}
