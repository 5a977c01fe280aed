/**
 * The excerpt task (SPEC F-TASK) as a plug-in: `excerptTask`, a harness Task
 * (its sources and startup snapshot, its two tools — read_source also over
 * MCP through its read adapter — the card layout, the stage policy, and
 * acceptance from evidence, live and recorded). The CLI's registry takes only
 * `excerptTask` and the fixture server's launch (`fixtureLaunch`); the rest is
 * what tests and the bench read of the task. The fixture server is
 * `./server/index.ts`, deliberately not re-exported here.
 */
export { excerptTask } from './task.ts';
export { parseCard, renderCard } from './card.ts';
export { readSourceContract, ReadSourceResult } from './contracts.ts';
export { checkAgainstSnapshot, READ_SOURCE_EXPECTED } from './mcp-read-source.ts';
export { FIXTURE_ENV_ALLOW, FIXTURE_KEY, fixtureLaunch } from './fixture-launch.ts';
export type { FixtureLaunchOptions } from './fixture-launch.ts';
export { fixtureSnapshot, SOURCE_IDS } from './sources.ts';
export { takeSnapshot } from './snapshot.ts';
