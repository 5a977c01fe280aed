/**
 * The expectations task: users' scenarios as smoke checks of their own MCP
 * servers — scripted calls, one acceptance check per expectation, each
 * re-computed by `verify` from the record (the scenario copy, the call
 * events, the kept result data).
 */
export { expectationChecks } from './checks.ts';
export type { Observed, ObservedCall, ResultSchema, ValidateOutput } from './checks.ts';
export { EXPECTATIONS_KINDS } from './kinds.ts';
export { liveObserved, recordedObserved } from './observed.ts';
export { resolvePointer } from './pointer.ts';
export type { Pointed } from './pointer.ts';
export { checkOutputTools, checkScripted } from './scenario-checks.ts';
export { EXPECTATIONS_TASK, expectationsRecheck, expectationsTask, scenarioCopy, taskOfScenario } from './task.ts';
export { loadOutputValidator } from './validate.ts';
