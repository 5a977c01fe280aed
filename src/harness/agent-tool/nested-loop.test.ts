import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../test/scratch.ts';
import { exitCodeOf } from '../../base/index.ts';
import { LIMITS } from '../../contract/index.ts';
import { EXCERPT_SCENARIOS, excerptTask } from '../../excerpt/index.ts';
import { verify } from '../../ledger/index.ts';
import { inProcessHook, NO_RULES, permissionPolicy, type Hook, type HookInput, type RuntimeTool } from '../../pipeline/index.ts';
import { withNested } from '../decide-acceptance.ts';
import { recheckAcceptance } from '../recheck.ts';
import { runTask, type RunOutcome } from '../run.ts';
import { loadScenario, parseScenario, scriptedModel, type Scenario } from '../scenario.ts';
import type { Task } from '../task.ts';
import { replacingTool } from '../testing/replace-tool.ts';
import { testHost } from '../testing/test-host.ts';
import { agentTool } from './agent-tool.ts';
import { discoverAgentTypes } from './agent-types.ts';

const usage = { input_tokens: 1, output_tokens: 1 };
const final = (text = 'done') => ({ text, usage });
const read = (id: string, source = 'alpha') => ({ id, name: 'read_source', arguments: { source_id: source } });
const agentCall = (id: string, type?: string) => ({ id, name: 'Agent', arguments: { description: 'd', prompt: 'Read alpha.', ...(type ? { subagent_type: type } : {}) } });

function scenarioOf(responses: unknown[], subagents: Record<string, unknown[]>, name = 'nested'): Scenario {
  const text = JSON.stringify({ name, description: 'd', expect: { accepted: false }, responses, subagents: Object.fromEntries(Object.entries(subagents).map(([id, r]) => [id, { responses: r }])) });
  const parsed = parseScenario(text, `${name}.json`);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

async function run(scenario: Scenario, options: { task?: Task; hooks?: Hook[]; embedded?: string[]; policy?: boolean } = {}): Promise<{ outcome: RunOutcome; runDir: string }> {
  const types = discoverAgentTypes({ embedded: options.embedded ?? [] });
  if (!types.ok) throw new Error(types.message);
  const runDir = join(scratchDir('caplab-nested-'), 'run');
  const agents = types.value.types.map((t) => ({ name: t.name, kind: t.source, path: t.path, sha256: t.sha256 }));
  // With `policy`, a hook's decision is honoured as the host's policy honours it (testHost allows everything).
  const policy = permissionPolicy({ rules: NO_RULES, allowFlags: [], denyFlags: [], interactive: false, yes: true });
  const permission = options.policy ? { permission: policy } : {};
  const outcome = await runTask({ task: options.task ?? excerptTask, model: scriptedModel(scenario), runId: 'nested', runDir, ...testHost(), ...permission, hooks: options.hooks ?? [], builtins: [agentTool(types.value)], agents });
  if (!outcome.ok) throw new Error(`${outcome.class}/${outcome.kind}: ${outcome.message}`);
  const verified = verify(runDir, { recheck: recheckAcceptance(excerptTask), expectedHead: outcome.value.head });
  expect(verified.ok ? 'verifies' : `${verified.kind}: ${verified.message}`).toBe('verifies');
  return { outcome: outcome.value, runDir };
}

const agentOutcome = (outcome: RunOutcome, id = 'toolu_p01') => {
  const call = outcome.loop.calls.find((c) => c.toolCallId === id)!;
  return call.outcome.ok ? 'ok' : `${call.outcome.class}/${call.outcome.kind}: ${call.outcome.message}`;
};

test(`a subagent past subagentRequests (${LIMITS.subagentRequests}) without a final text: business/subagent_incomplete naming the limit`, async () => {
  const reads = Array.from({ length: LIMITS.subagentRequests + 1 }, (_, i) => ({ tool_calls: [read(`toolu_s${i}`)], usage }));
  const { outcome } = await run(scenarioOf([{ tool_calls: [agentCall('toolu_p01')], usage }, final()], { toolu_p01: reads }));
  expect(agentOutcome(outcome)).toStartWith('business/subagent_incomplete');
  expect(agentOutcome(outcome)).toContain('subagentRequests');
  expect(outcome.loop.subagents![0]!.requests).toHaveLength(LIMITS.subagentRequests);
});

test(`a subagent response that would pass subagentCalls (${LIMITS.subagentCalls}): none of its calls runs, subagent_incomplete naming the limit`, async () => {
  const many = Array.from({ length: LIMITS.subagentCalls + 1 }, (_, i) => read(`toolu_s${i}`));
  const { outcome } = await run(scenarioOf([{ tool_calls: [agentCall('toolu_p01')], usage }, final()], { toolu_p01: [{ tool_calls: many, usage }] }));
  expect(agentOutcome(outcome)).toContain('subagentCalls');
  expect(outcome.loop.subagents![0]!.calls).toHaveLength(0);
});

test(`the Agent call past subagentsPerRun (${LIMITS.subagentsPerRun}): precondition/too_many_subagents, nothing started`, async () => {
  const ids = Array.from({ length: LIMITS.subagentsPerRun + 1 }, (_, i) => `toolu_p${String(i).padStart(2, '0')}`);
  const { outcome } = await run(scenarioOf([{ tool_calls: ids.map((id) => agentCall(id)), usage }, final()], Object.fromEntries(ids.map((id) => [id, [final(`answer ${id}`)]]))));
  const kinds = outcome.loop.calls.map((c) => (c.outcome.ok ? 'ok' : c.outcome.kind));
  expect(kinds).toEqual([...Array(LIMITS.subagentsPerRun).fill('ok'), 'too_many_subagents']);
  expect(outcome.loop.subagents).toHaveLength(LIMITS.subagentsPerRun);
});

test('an unknown outcome inside makes the Agent call unknown: the run ends exit 4, and verifies', async () => {
  const task = replacingTool('create_card', (tool): RuntimeTool => ({
    ...tool,
    attributes: { ...tool.attributes, timeoutMs: 50 },
    handler: async (input, context) => {
      const done = await tool.handler(input, context);
      return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(done)));
    },
  }));
  const creates = loadScenario(EXCERPT_SCENARIOS.folder, 'subagent-creates');
  if (!creates.ok) throw new Error(creates.message);
  const { outcome } = await run(creates.value, { task, embedded: ['carder'] });
  expect(agentOutcome(outcome)).toStartWith('closed/subagent_outcome_unknown');
  expect(exitCodeOf(outcome.ending)).toBe(4);
});

test('hooks inside: PreToolUse sees agent_id and agent_type; SubagentStart and SubagentStop see them; a SubagentStop block runs the next scripted response', async () => {
  const seen: HookInput[] = [];
  let blocked = false;
  const hooks = [
    inProcessHook('PreToolUse', 'read_source', 'pre', (input) => (seen.push(input), {})),
    inProcessHook('SubagentStart', 'reader', 'start', (input) => (seen.push(input), { additionalContext: 'noted' })),
    inProcessHook('SubagentStop', '', 'stop', (input) => {
      seen.push(input);
      if (blocked) return {};
      blocked = true;
      return { block: 'Say it once more.' };
    }),
  ];
  const { outcome } = await run(scenarioOf([{ tool_calls: [agentCall('toolu_p01', 'reader')], usage }, final()], { toolu_p01: [{ tool_calls: [read('toolu_s01')], usage }, final('first'), final('second')] }), { hooks, embedded: ['reader'] });
  expect(seen.map((i) => [i.hook_event_name, i.agent_id, i.agent_type])).toEqual([
    ['SubagentStart', 'agent-act-01', 'reader'],
    ['PreToolUse', 'agent-act-01', 'reader'],
    ['SubagentStop', 'agent-act-01', 'reader'],
    ['SubagentStop', 'agent-act-01', 'reader'],
  ]);
  const stops = seen.filter((i) => i.hook_event_name === 'SubagentStop') as { stop_hook_active?: boolean; last_assistant_message?: string }[];
  expect(stops.map((s) => [s.stop_hook_active, s.last_assistant_message])).toEqual([[false, 'first'], [true, 'second']]);
  const agent = outcome.loop.calls.find((c) => c.toolCallId === 'toolu_p01')!;
  expect(agent.outcome.ok && (agent.outcome.value.data as { text: string }).text).toBe('second');
  // The block's reason is the subagent's next user message.
  const third = outcome.loop.subagents![0]!.requests[2]!;
  expect(new TextDecoder().decode(third.sent.payload)).toContain('Say it once more.');
});

test('a PreToolUse deny matching Agent, or its older name Task, blocks the call before the subagent starts', async () => {
  for (const matcher of ['Agent', 'Task']) {
    const deny = inProcessHook('PreToolUse', matcher, 'deny', () => ({ permissionDecision: 'deny', reason: 'no delegation' }));
    const { outcome } = await run(scenarioOf([{ tool_calls: [agentCall('toolu_p01')], usage }, final()], { toolu_p01: [final()] }), { hooks: [deny], policy: true });
    expect(agentOutcome(outcome)).toStartWith('permission_denied/');
    expect(outcome.loop.subagents).toBeUndefined();
  }
});

test("a subagent's calls count as the run's, in record order, before its Agent call", async () => {
  const { outcome } = await run(scenarioOf([{ tool_calls: [agentCall('toolu_p01')], usage }, final()], { toolu_p01: [{ tool_calls: [read('toolu_s01'), read('toolu_s02', 'beta')], usage }, final()] }));
  expect(withNested(outcome.loop.calls, outcome.loop.subagents).map((c) => c.toolCallId)).toEqual(['toolu_s01', 'toolu_s02', 'toolu_p01']);
});

test('an Agent call inside a subagent is refused precondition/subagent_nested: no subagent starts under it', async () => {
  const { outcome } = await run(scenarioOf([{ tool_calls: [agentCall('toolu_p01')], usage }, final()], { toolu_p01: [{ tool_calls: [agentCall('toolu_s01')], usage }, final('could not')] }));
  const inner = outcome.loop.subagents![0]!.calls[0]!;
  expect([inner.handlerEntered, inner.outcome.ok ? 'ok' : `${inner.outcome.class}/${inner.outcome.kind}`]).toEqual([false, 'precondition/subagent_nested']);
  expect(outcome.loop.subagents).toHaveLength(1);
});

test("an Agent answer discloses only what its subagent's own requests disclosed: beta's text it never read discloses nothing", async () => {
  const alpha = readFileSync(join(import.meta.dir, '../../../fixtures/sources/alpha.md'), 'utf8');
  const beta = readFileSync(join(import.meta.dir, '../../../fixtures/sources/beta.md'), 'utf8');
  const { outcome } = await run(scenarioOf([{ tool_calls: [agentCall('toolu_p01')], usage }, final()], { toolu_p01: [{ tool_calls: [read('toolu_s01')], usage }, final(`${alpha}\n${beta}`)] }));
  expect(outcome.loop.requests[1]!.intent.fields['disclosed_sources']).toEqual(['alpha']);
});
