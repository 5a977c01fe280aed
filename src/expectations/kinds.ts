import type { KindTable } from '../contract/index.ts';

/** The expectations task's failures: a scenario its run cannot check, and its recheck of a recorded run. */
export const EXPECTATIONS_KINDS = {
  // before any call: an expectation no scripted call can meet, output_valid on a tool without an outputSchema
  bad_scenario: { class: 'invalid_arguments', basis: null },
  // verify: the scenario copy run_start references is missing, not a scenario of this task, or not the run's
  scenario_mismatch: { class: 'evidence', basis: null },
  // verify: a successful call whose result data is not on record (the harness ties each result file to its call)
  result_mismatch: { class: 'evidence', basis: null },
} as const satisfies KindTable;

declare module '../contract/index.ts' {
  interface FailureTables {
    readonly expectations: typeof EXPECTATIONS_KINDS;
  }
}
