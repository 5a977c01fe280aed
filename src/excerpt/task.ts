import type { Task } from '../harness/index.ts';
import { createCardContract, readSourceContract } from './contracts.ts';
import { CREATE_CARD_VERSION, localCreateCard } from './create-card.ts';
import { liveAcceptance, recordedAcceptance } from './evidence.ts';
import { FIXTURE_SERVER_INFO } from './fixture-info.ts';
import { mcpReadSource, READ_SOURCE_EXPECTED } from './mcp-read-source.ts';
import { LOCAL_READ_SOURCE_VERSION, localReadSource } from './read-source.ts';
import { takeSnapshot } from './snapshot.ts';
import { fixtureSnapshot } from './sources.ts';
import { stageOf, STAGES } from './stages.ts';

/**
 * The excerpt task (SPEC F-TASK) as a plug-in: read two fixed sources, create
 * one card quoting each verbatim, finish — accepted only from evidence.
 * `read_source` may come over the fixture MCP server; `create_card` is always local.
 */
/** The source a read_source input names (the handler reads exactly that one). */
function sourceIdOf(input: unknown): string | undefined {
  const id = (input as { source_id?: unknown } | null)?.source_id;
  return typeof id === 'string' ? id : undefined;
}

export const excerptTask: Task = {
  prompt: {
    user: 'Make an excerpt card: read the two sources (alpha, then beta), then create one card with one verbatim quote from each, in that order. Finish with a short answer.',
    rule: 'Tool results arrive in the next request; a card can only quote sources whose results are already in the request that proposes it.',
  },
  snapshot: fixtureSnapshot,
  snapshotOf: takeSnapshot,
  tools: {
    local: [
      { entry: { contract: readSourceContract, implementation: { kind: 'local', version: LOCAL_READ_SOURCE_VERSION } }, make: localReadSource },
      { entry: { contract: createCardContract, implementation: { kind: 'local', version: CREATE_CARD_VERSION } }, make: localCreateCard },
    ],
    mcp: {
      server: FIXTURE_SERVER_INFO.name,
      expected: [READ_SOURCE_EXPECTED],
      adapt: (client, snapshot) => [mcpReadSource(client, snapshot)],
    },
    // The user asked for one card, so create_card is allowed by the task itself.
    grant: [createCardContract.name],
    read: { name: readSourceContract.name, sourceOf: (input) => sourceIdOf(input) },
  },
  method: { stages: STAGES, stageOf, skill: 'excerpt-card' },
  acceptance: { live: liveAcceptance, recorded: recordedAcceptance },
  scenarios: {
    folder: 'fixtures/scenarios',
    demo: 'happy',
    // Only read_source is served over MCP, so these are the scenarios whose outcome the transport
    // could change: the same-batch refusal and names that look like the server-qualified
    // `mcp__caplab-fixture__read_source`. Each MCP case starts a server, so the list stays short.
    overMcp: ['same-batch', 'hostile-protocol-names'],
  },
  artifact: { name: 'card', folder: 'card' },
};
