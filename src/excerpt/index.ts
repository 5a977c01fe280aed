/**
 * The excerpt task (SPEC F-TASK): fixed sources, the startup snapshot, the two
 * tools, the card layout, disclosure from payload bytes, and acceptance.
 */
export { acceptanceChecks, isAccepted } from './acceptance.ts';
export type { AcceptanceCheck, AcceptanceEvidence, Verdict } from './acceptance.ts';
export { CARD_PATH, parseCard, renderCard } from './card.ts';
export { CardReceipt, createCardContract, QUOTE_MAX, QUOTE_MIN, readSourceContract, ReadSourceResult } from './contracts.ts';
export type { CreateCardInput } from './contracts.ts';
export { CREATE_CARD_VERSION, localCreateCard } from './create-card.ts';
export { disclosedSources } from './disclosure.ts';
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
export type { Snapshot, SourceSnapshot } from './snapshot.ts';
