/**
 * The excerpt task (SPEC F-TASK) as a plug-in (`excerptTask`, a harness Task):
 * fixed sources and their startup snapshot, the two tools (read_source also
 * over MCP: its read adapter and fixture session), the card layout, the stage
 * policy, and acceptance from evidence, live and recorded. The fixture server
 * is `./server/index.ts`, deliberately not re-exported here.
 */
export { excerptTask } from './task.ts';
export { acceptanceChecks } from './acceptance.ts';
export type { AcceptanceEvidence } from './acceptance.ts';
export { liveAcceptance, recordedAcceptance } from './evidence.ts';
export { CARD_PATH, parseCard, renderCard } from './card.ts';
export { CardReceipt, createCardContract, QUOTE_MAX, QUOTE_MIN, readSourceContract, ReadSourceResult } from './contracts.ts';
export type { CreateCardInput } from './contracts.ts';
export { CREATE_CARD_VERSION, localCreateCard } from './create-card.ts';
export { FIXTURE_SERVER_INFO } from './fixture-info.ts';
export { openFixtureSession } from './fixture-session.ts';
export type { FixtureSession, FixtureSessionOptions } from './fixture-session.ts';
export { checkAgainstSnapshot, mcpReadSource, READ_SOURCE_EXPECTED } from './mcp-read-source.ts';
export type { McpReadSourceOptions } from './mcp-read-source.ts';
export { LOCAL_READ_SOURCE_VERSION, localReadSource } from './read-source.ts';
export { fixtureSnapshot, SOURCE_IDS } from './sources.ts';
export { sourceById, takeSnapshot } from './snapshot.ts';
export { STAGES, stageOf } from './stages.ts';
export type { Stage } from './stages.ts';
