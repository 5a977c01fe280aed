/**
 * caplab as a library (package.json `exports` "."): what it takes to define
 * tools and a task, run it on a host with a model, and verify the record. The
 * rest of each folder's surface is its own subpath (`caplab/contract`,
 * `caplab/harness`, …).
 *
 * - Tools: `defineTool` (a local tool, its handler's input typed by its
 *   contract), `localProvider` (tools of one run, as a task's `tools(run)` returns them).
 * - A host: `createHost` (settings, hooks, permission rules, method packages:
 *   the assembly `caplab run` uses), or `runTask` with every option given.
 * - Models: `scriptedModel` over a `Scenario` (`loadScenario`), `replayModel`
 *   over recorded responses (`loadReplay`, `parseReplay`).
 * - The record: `verify` re-checks a run dir with the task it names;
 *   `summaryOf` says how a run ended in one line.
 * - Results: `ok` and `fail` make a handler's `Outcome`, `textBlock` its content.
 */
export { createHost, defineTool, localProvider, runTask, summaryOf } from './harness/index.ts';
export { loadScenario, Scenario, scriptedModel } from './harness/index.ts';
export { loadReplay, parseReplay, replayModel } from './harness/index.ts';
export { verifyRun as verify } from './harness/index.ts';
export { fail, ok } from './contract/index.ts';
export { textBlock } from './pipeline/index.ts';
export type { AcceptanceCheck, LocalTool, Task, ToolDefinition, ToolProvider } from './harness/index.ts';
export type { Host, HostedTask, HostOptions, HostRunOptions, RunOptions, RunOutcome, RunEnding } from './harness/index.ts';
export type { Model, Replay, RecheckReport, RunVerification } from './harness/index.ts';
export type { Contract, Failure, Outcome } from './contract/index.ts';
