import { AGENT_TOOL, agentIdOf, localProvider, type LocalTool, type RecordedCall, type Task, type TaskRun } from '../harness/index.ts';
import { createCardContract, readSourceContract } from './contracts.ts';
import { CREATE_CARD_VERSION, localCreateCard } from './create-card.ts';
import { disclosedSources, sourceReads, type ReadCall } from './disclosure.ts';
import { liveAcceptance, recordedAcceptance } from './evidence.ts';
import { fixtureProvider, type FixtureToolsOptions } from './fixture-tools.ts';
import { LOCAL_READ_SOURCE_VERSION, localReadSource } from './read-source.ts';
import { excerptRun } from './run-state.ts';
import { SNAPSHOT_ROLE, snapshotFile } from './snapshot-files.ts';
import { stageOf, STAGES } from './stages.ts';

/** read_source as a local function over the run's snapshot. */
const readSourceTool = (run: TaskRun): LocalTool => ({
  entry: { contract: readSourceContract, implementation: { kind: 'local', version: LOCAL_READ_SOURCE_VERSION } },
  make: () => localReadSource(excerptRun(run).snapshot),
});

/** create_card, always local: it writes the card under the run dir. */
const createCardTool = (run: TaskRun): LocalTool => ({
  entry: { contract: createCardContract, implementation: { kind: 'local', version: CREATE_CARD_VERSION } },
  make: () => localCreateCard(excerptRun(run)),
});

/** A call as disclosure reads it; a host Agent call carries what its subagent's own requests disclosed. */
const readCallOf = (run: TaskRun, call: RecordedCall): ReadCall => ({
  toolCallId: call.toolCallId,
  name: call.name,
  arguments: call.arguments,
  ok: call.outcome.ok,
  ...(call.host && call.name === AGENT_TOOL ? { delegated: excerptRun(run).disclosedByAgent(agentIdOf(call.actionId)) } : {}),
});

/**
 * The excerpt task (SPEC F-TASK) as a plug-in: read two fixed sources, create
 * one card quoting each verbatim, finish — accepted only from evidence. It
 * starts from its snapshot (the sources read once, recorded in run_start and
 * `snapshot/`), records what each request disclosed (`disclosed_sources`),
 * and re-checks both from the record. Here both tools are local; over MCP
 * (`excerptTaskOverMcp`) read_source comes from the fixture server.
 */
export const excerptTask: Task = {
  id: 'excerpt',
  prompt: {
    user: 'Make an excerpt card: read the two sources (alpha, then beta), then create one card with one verbatim quote from each, in that order. Finish with a short answer.',
    rule: 'Tool results arrive in the next request; a card can only quote sources whose results are already in the request that proposes it.',
  },
  tools: (run) => [localProvider([readSourceTool(run), createCardTool(run)])],
  acceptance: { live: liveAcceptance, recorded: recordedAcceptance },
  // The user asked for one card, so create_card is allowed by the task itself.
  grant: [createCardContract.name],
  method: { stages: STAGES, stageOf, skill: 'excerpt-card' },
  start: (run) => {
    const { snapshot } = excerptRun(run);
    return {
      files: snapshot.sources.map((s) => ({ path: snapshotFile(s.id), role: SNAPSHOT_ROLE, bytes: s.bytes })),
      fields: { snapshot: { id: snapshot.id, sources: snapshot.sources.map((s) => ({ id: s.id, sha256: s.sha256, bytes: s.byteLength })) } },
    };
  },
  requestFields: (request, run) => {
    const held = excerptRun(run);
    const disclosed = disclosedSources(request.payload, held.snapshot, sourceReads(request.calls.map((call) => readCallOf(run, call))));
    held.disclose(request.id, disclosed, request.agent);
    return { disclosed_sources: disclosed };
  },
  artifact: { name: 'card', folder: 'card' },
  fields: { run_start: ['snapshot'], request: ['disclosed_sources'], acceptance: ['receipt', 'producing_request', 'card'] },
};

/**
 * The excerpt task with read_source served by its fixture MCP server (in
 * local read_source's place, so the model sees the same order on both
 * transports); create_card stays local.
 */
export function excerptTaskOverMcp(options: FixtureToolsOptions): Task {
  const served = fixtureProvider(options);
  return { ...excerptTask, tools: (run) => [served, localProvider([createCardTool(run)])] };
}

/**
 * The task's built-in scenarios as the CLI runs them: the folder, the one
 * `demo` runs, and those `check` runs over MCP too. Only read_source is
 * served over MCP, so these are the scenarios whose outcome the transport
 * could change: the same-batch refusal and names that look like the
 * server-qualified `mcp__caplab-fixture__read_source`. Each MCP case starts
 * a server, so the list stays short.
 */
export const EXCERPT_SCENARIOS = { folder: 'fixtures/scenarios', demo: 'happy', overMcp: ['same-batch', 'hostile-protocol-names', 'deferred-search', 'deferred-select', 'deferred-undisclosed', 'deferred-wrong-request', 'deferred-bad-search', 'deferred-denied', 'skill-tool', 'skill-once', 'skill-unknown', 'subagent-summary', 'subagent-verbatim', 'subagent-creates', 'subagent-wider', 'subagent-nested', 'subagent-denied', 'subagent-create-twice', 'subagent-background'] } as const;
