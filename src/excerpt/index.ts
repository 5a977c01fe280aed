/**
 * The excerpt task (SPEC F-TASK) as a plug-in: `excerptTask`, a harness Task
 * (its sources and startup snapshot, its two tools — read_source also over
 * MCP through its read adapter, `excerptTaskOverMcp` — disclosure, the card
 * layout, the stage policy, and acceptance from evidence, live and
 * recorded), and its built-in scenarios. The CLI's registry takes the task,
 * its MCP form (given the fixture server's launch, `fixtureLaunch`) and its
 * scenarios; the rest is what tests and the bench read of the task. The
 * fixture server is `./server/index.ts`, deliberately not re-exported here.
 */
export { EXCERPT_SCENARIOS, excerptTask, excerptTaskOverMcp } from './task.ts';
export type { FixtureToolsOptions } from './fixture-tools.ts';
export { disclosedSources, sourceReads } from './disclosure.ts';
export type { ReadCall } from './disclosure.ts';
export { excerptRun, newExcerptRun } from './run-state.ts';
export type { ExcerptRun } from './run-state.ts';
export type { Snapshot, SourceSnapshot } from './snapshot.ts';
export { parseCard, renderCard } from './card.ts';
export { createCardContract, readSourceContract, ReadSourceResult } from './contracts.ts';
export { checkAgainstSnapshot, READ_SOURCE_EXPECTED } from './mcp-read-source.ts';
export { FIXTURE_ENV_ALLOW, FIXTURE_HTTP_ARGS, FIXTURE_KEY, FIXTURE_TOKEN_ENV, fixtureLaunch } from './fixture-launch.ts';
export type { FixtureLaunchOptions } from './fixture-launch.ts';
export { fixtureSnapshot, SOURCE_IDS } from './sources.ts';
export { takeSnapshot } from './snapshot.ts';
export { EXCERPT_KINDS } from './kinds.ts';
