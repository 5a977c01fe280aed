import { expect, test } from 'bun:test';
import { bind } from '../binding/index.ts';
import { canonicalHash, fail, ok, sha256Hex } from '../contract/index.ts';
import type { Hook } from './hook.ts';
import { inProcessHook } from './hooks/index.ts';
import type { StageName } from './call-record.ts';
import { textBlock } from './result-block.ts';
import { executeCall, runStages } from './run.ts';
import { next, stop, type Pipeline, type CallStage, type Step } from './stages/index.ts';
import { callState, echoContract, echoPipeline, echoTool as kitEchoTool, offering } from './testing/call-state.ts';
import { attributesOf, type RuntimeTool } from './tool.ts';

/** The kit's echo tool, counting entries and recording the inputs it got; `mcp` binds it to a server. */
function echoTool(options: { check?: RuntimeTool['check']; handler?: RuntimeTool['handler']; timeoutMs?: number; mcp?: boolean } = {}) {
  let entered = 0;
  const inputs: unknown[] = [];
  const echo = options.handler ?? kitEchoTool().handler;
  const tool = kitEchoTool({
    ...(options.mcp
      ? { binding: bind(echoContract, { implementation: { kind: 'mcp', version: 'echo/1' }, server: { key: 'srv', name: 'srv', version: '1', protocolVersion: '2025-06-18', endpoint: { kind: 'stdio', argv: ['srv'], cwd: '/', envNames: [] }, instanceId: 'i' } }) }
      : {}),
    attributes: attributesOf(echoContract, { ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}), fromMcp: options.mcp ?? false }),
    ...(options.check ? { check: options.check } : {}),
    handler: async (input, context) => {
      entered++;
      inputs.push(input);
      return echo(input, context);
    },
  });
  return { tool, entered: () => entered, inputs };
}

function setup(tool: RuntimeTool, overrides: Partial<Pipeline> = {}) {
  const kept: { actionId: string; text: string }[] = [];
  const keepOutput: Pipeline['keepOutput'] = (actionId, text) => (kept.push({ actionId, text }), { path: `outputs/${actionId}.txt`, sha256: sha256Hex(text), bytes: new TextEncoder().encode(text).byteLength });
  return { pipeline: echoPipeline(tool, { keepOutput, ...overrides }), request: offering(tool), kept };
}

const hook = (event: Hook['event'], result: Omit<Awaited<ReturnType<Hook['run']>>, 'hook'>, seen?: unknown[]): Hook => ({
  name: `test-${event}`,
  event,
  matcher: 'echo',
  run: async (input) => (seen?.push(input), { hook: `test-${event}`, ...result }),
});

const classKind = (record: Awaited<ReturnType<typeof executeCall>>) => (record.outcome.ok ? 'ok' : `${record.outcome.class}/${record.outcome.kind}`);
const lastStage = (record: Awaited<ReturnType<typeof executeCall>>) => record.stages.at(-1);
/** The text of a record's first block (every block these tests make is text). */
const textOf = (record: Awaited<ReturnType<typeof executeCall>>) => (record.modelContent[0]?.type === 'text' ? record.modelContent[0].text : '');

test('resolve: a tool the request did not offer → unknown_tool, handler not entered', async () => {
  const echo = echoTool();
  const { pipeline, request } = setup(echo.tool);
  const record = await executeCall({ id: 't', name: 'nope', arguments: {} }, request, 'a1', pipeline);
  expect([classKind(record), lastStage(record)?.stage, echo.entered()]).toEqual(['invalid_arguments/unknown_tool', 'resolve', 0]);
});

test('resolve: the binding behind the name changed since the request → binding_changed, handler not entered', async () => {
  const old = echoTool();
  const current = echoTool();
  const rebound = { ...current.tool, binding: bind(echoContract, { implementation: { kind: 'local', version: 'echo/2' } }) };
  const { pipeline, request } = setup(old.tool, { tools: { echo: rebound } });
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline);
  expect([classKind(record), old.entered(), current.entered()]).toEqual(['precondition/binding_changed', 0, 0]);
});

test('convert: a failed conversion stops the call before validation', async () => {
  const echo = echoTool();
  const { pipeline, request } = setup(echo.tool, { convert: () => fail('precondition', 'unrepresentable', 'x') });
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline);
  expect([classKind(record), lastStage(record)?.stage, echo.entered()]).toEqual(['precondition/unrepresentable', 'convert', 0]);
});

test('validate: schema first, then the tool-specific check; neither enters the handler', async () => {
  const echo = echoTool({ check: (input) => ((input as { word: string }).word === 'forbidden' ? fail('precondition', 'target_exists', 'no') : undefined) });
  const { pipeline, request } = setup(echo.tool);
  const bad = await executeCall({ id: 't', name: 'echo', arguments: { word: '' } }, request, 'a1', pipeline);
  const specific = await executeCall({ id: 't', name: 'echo', arguments: { word: 'forbidden' } }, request, 'a2', pipeline);
  expect([classKind(bad), lastStage(bad)?.stage]).toEqual(['invalid_arguments/length', 'validate']);
  expect([classKind(specific), lastStage(specific)?.stage]).toEqual(['precondition/target_exists', 'validate']);
  expect(echo.entered()).toBe(0);
});

test('PreToolUse: a block → permission_denied/hook, handler not entered', async () => {
  const echo = echoTool();
  const { pipeline, request } = setup(echo.tool, { hooks: [hook('PreToolUse', { block: 'not today', exitCode: 2 })] });
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline);
  expect([classKind(record), lastStage(record)?.stage, echo.entered()]).toEqual(['permission_denied/hook', 'pre_hooks', 0]);
  expect(record.hooks[0]?.block).toBe('not today');
});

test('PreToolUse: a rewritten input is validated again; both inputs are recorded', async () => {
  const echo = echoTool();
  const invalid = setup(echo.tool, { hooks: [hook('PreToolUse', { updatedInput: { word: 'hi', extra: 1 } })] });
  const refused = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, invalid.request, 'a1', invalid.pipeline);
  expect([classKind(refused), echo.entered()]).toEqual(['invalid_arguments/extra_field', 0]);

  const valid = setup(echo.tool, { hooks: [hook('PreToolUse', { updatedInput: { word: 'ho', times: 2 } })] });
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, valid.request, 'a2', valid.pipeline);
  expect(record.outcome.ok && record.outcome.value.content).toEqual([textBlock('hoho')]);
  expect(record.arguments.original).toEqual({ word: 'hi' });
  expect(record.arguments.rewritten).toEqual({ word: 'ho', times: 2 });
  expect(echo.inputs).toEqual([{ word: 'ho', times: 2 }]);
});

test('permission: a deny stops the call; the hook decision reaches the policy', async () => {
  const echo = echoTool();
  const decisions: unknown[] = [];
  const { pipeline, request } = setup(echo.tool, {
    hooks: [hook('PreToolUse', { permissionDecision: 'allow' })],
    permission: (_tool, hookDecision) => (decisions.push(hookDecision), { decision: 'deny', by: 'rule', rule: 'echo', reason: 'deny rule echo' }),
  });
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline);
  expect([classKind(record), lastStage(record)?.stage, echo.entered()]).toEqual(['permission_denied/rule', 'permission', 0]);
  expect(decisions).toEqual([{ decision: 'allow', hook: 'test-PreToolUse' }]);
});

test('handler: a timeout is an unknown outcome, the handler was entered and saw the abort', async () => {
  let aborted = false;
  const echo = echoTool({
    timeoutMs: 5,
    handler: (_input, context) =>
      new Promise((resolve) => context.signal.addEventListener('abort', () => ((aborted = true), resolve(fail('business', 'handler_threw', 'late'))))),
  });
  const { pipeline, request } = setup(echo.tool);
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline);
  expect([classKind(record), record.handlerEntered, aborted]).toEqual(['timeout/handler_timeout', true, true]);
});

test('output limit: the model sees a truncated text with a reference; the full output is kept', async () => {
  const echo = echoTool();
  const seen: unknown[] = [];
  const { pipeline, request, kept } = setup(echo.tool, { hooks: [hook('PostToolUse', {}, seen)] });
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: '界', times: 20 } }, request, 'a1', pipeline);
  expect(kept).toEqual([{ actionId: 'a1', text: '界'.repeat(20) }]);
  const [shown, ...more] = record.modelContent;
  expect([shown?.type, more]).toEqual(['text', []]);
  expect(shown?.type === 'text' && shown.text.startsWith(`${'界'.repeat(10)}\n`)).toBe(true); // 30 of 32 bytes: no split code point
  expect(shown?.type === 'text' && shown.text).toContain('full output kept at outputs/a1.txt');
  expect(record.outputCut).toEqual({ fullBytes: 60, cut: { index: 0, bytes: 60, keptBytes: 30 }, dropped: [] });
  expect(record.fullOutput?.path).toBe('outputs/a1.txt');
  expect((seen[0] as { tool_response: unknown }).tool_response).toEqual({ echoed: '界'.repeat(20) });
  expect(record.stages.map((s) => s.stage)).toEqual(['resolve', 'convert', 'validate', 'pre_hooks', 'permission', 'handler', 'result_validate', 'output_limit', 'post_hooks']);
});

test('resolve: the object that runs is the one registered under the pinned binding id, not the table key', async () => {
  const pinned = echoTool();
  const impostor = echoTool();
  const other = { ...impostor.tool, binding: bind(echoContract, { tool: 'other', implementation: { kind: 'local', version: 'echo/2' } }) };
  // The key 'echo' holds a tool bound as 'other'; the pinned tool sits under another key.
  const { pipeline, request } = setup(pinned.tool, { tools: { echo: other, elsewhere: pinned.tool } });
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline);
  expect([classKind(record), record.bindingId, pinned.entered(), impostor.entered()]).toEqual(['ok', pinned.tool.binding.id, 1, 0]);
});

test('result_validate: a local handler returning the wrong shape → business/result_invalid; raw hash kept; the model sees an error', async () => {
  const raw = { totally: 'wrong' };
  const seen: unknown[] = [];
  const echo = echoTool({ handler: async () => ok({ data: raw, content: [textBlock('looks fine')], evidence: 'bytes observed now' }) });
  const { pipeline, request } = setup(echo.tool, { hooks: [hook('PostToolUse', {}, seen)] });
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline);
  expect([classKind(record), lastStage(record)?.stage, lastStage(record)?.status, record.handlerEntered]).toEqual(['business/result_invalid', 'result_validate', 'failed', true]);
  expect(record.rawResultSha256).toBe(canonicalHash(raw));
  expect(record.modelContent).toHaveLength(1);
  expect(JSON.parse(textOf(record)).error.kind).toBe('result_invalid');
  expect(textOf(record)).not.toContain('looks fine');
  expect(seen).toEqual([]);
});

test('result_validate: the same mismatch from an MCP tool → protocol/output_invalid', async () => {
  const echo = echoTool({ mcp: true, handler: async () => ok({ data: { echoed: 3 }, content: [textBlock('3')], evidence: 'bytes observed now' }) });
  const { pipeline, request } = setup(echo.tool);
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline);
  expect([classKind(record), lastStage(record)?.stage]).toEqual(['protocol/output_invalid', 'result_validate']);
});

test('PreToolUse: a hook that throws is recorded, the call goes on', async () => {
  const echo = echoTool();
  const boom = inProcessHook('PreToolUse', 'echo', 'boom', () => {
    throw new Error('bug in hook');
  });
  const { pipeline, request } = setup(echo.tool, { hooks: [boom] });
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline);
  expect([classKind(record), echo.entered()]).toEqual(['ok', 1]);
  expect(record.hooks).toEqual([{ hook: 'boom', note: 'hook threw: bug in hook; non-blocking' }]);
});

test('PreToolUse: two hooks rewriting differently → permission_denied/hook_conflict, neither rewrite applied, handler not entered', async () => {
  const echo = echoTool();
  const hooks = [
    inProcessHook('PreToolUse', 'echo', 'one', () => ({ updatedInput: { word: 'one' } })),
    inProcessHook('PreToolUse', 'echo', 'two', () => ({ updatedInput: { word: 'two' } })),
  ];
  const { pipeline, request } = setup(echo.tool, { hooks });
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline);
  expect([classKind(record), lastStage(record)?.stage, echo.entered(), record.arguments.rewritten]).toEqual(['permission_denied/hook_conflict', 'pre_hooks', 0, undefined]);
  expect(record.hooks.map((h) => h.hook)).toEqual(['one', 'two']);
});

test('PreToolUse: a deny wins over another hook\'s invalid rewrite', async () => {
  const echo = echoTool();
  const hooks = [
    inProcessHook('PreToolUse', 'echo', 'rewrite', () => ({ updatedInput: { nonsense: true } })),
    inProcessHook('PreToolUse', 'echo', 'deny', () => ({ permissionDecision: 'deny', reason: 'no' })),
  ];
  const { pipeline, request } = setup(echo.tool, { hooks, permission: (_t, d) => (d?.decision === 'deny' ? { decision: 'deny', by: 'hook', reason: d.reason ?? '' } : { decision: 'allow', by: 'default', reason: 'r' }) });
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline);
  expect([classKind(record), lastStage(record)?.stage, echo.entered()]).toEqual(['permission_denied/hook', 'permission', 0]);
});

test('hooks match an MCP tool by its bare name and by mcp__<server>__<tool>, as permission rules do', async () => {
  for (const matcher of ['echo', 'mcp__srv__echo', 'mcp__srv__.*']) {
    const echo = echoTool({ mcp: true });
    const { pipeline, request } = setup(echo.tool, { hooks: [inProcessHook('PreToolUse', matcher, 'guard', () => ({ block: 'no' }))] });
    const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline);
    expect([matcher, classKind(record), echo.entered()]).toEqual([matcher, 'permission_denied/hook', 0]);
  }
  const local = echoTool();
  const { pipeline, request } = setup(local.tool, { hooks: [inProcessHook('PreToolUse', 'mcp__srv__.*', 'guard', () => ({ block: 'no' }))] });
  expect(classKind(await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline))).toBe('ok');
});

test('PostToolUse: a block cannot undo the call; the model is told why', async () => {
  const echo = echoTool();
  const { pipeline, request } = setup(echo.tool, { hooks: [hook('PostToolUse', { block: 'looks odd', exitCode: 2 })] });
  const record = await executeCall({ id: 't', name: 'echo', arguments: { word: 'hi' } }, request, 'a1', pipeline);
  expect([classKind(record), record.modelContent, record.hookContent]).toEqual(['ok', [textBlock('hi')], [textBlock('[PostToolUse hook test-PostToolUse: looks odd]')]]);
});

test('calls side by side interleave only at their I/O: a call whose hooks return after another call interrupted the run never enters its handler', async () => {
  const controller = new AbortController();
  let entered = 0;
  // The first handler to run interrupts the run on entry, as a SIGINT during a call would.
  const echo = echoTool({ handler: async () => (entered++, controller.abort('SIGINT'), ok({ data: { echoed: 'hi' }, content: [textBlock('hi')], evidence: 'bytes observed now' })) });
  const { pipeline, request } = setup(echo.tool, { signal: controller.signal });
  const call = (id: string) => executeCall({ id, name: 'echo', arguments: { word: 'hi' } }, request, `a-${id}`, pipeline);
  const [first, second] = await Promise.all([call('t1'), call('t2')]);
  expect([classKind(first!), classKind(second!), lastStage(second!)?.stage, entered]).toEqual(['ok', 'precondition/run_interrupted', 'pre_hooks', 1]);
});

test('runStages records each stage as it passes, a stop under the stage it names, and runs nothing after a stop', async () => {
  const ran: string[] = [];
  const tool = echoTool().tool;
  const stage = (name: StageName, step: Step): CallStage => ({ name, needs: [], run: () => (ran.push(name), step) });
  const stages = [stage('resolve', next({ tool }, 'found')), stage('convert', next()), stage('validate', stop(fail('precondition', 'binding_changed', 'y'), {}, 'pre_hooks')), stage('permission', next())];
  const record = await runStages(stages, callState({}));
  expect(ran).toEqual(['resolve', 'convert', 'validate']);
  expect(record.stages).toEqual([
    { stage: 'resolve', status: 'ok', detail: 'found' },
    { stage: 'convert', status: 'ok' },
    { stage: 'pre_hooks', status: 'failed', detail: 'precondition/binding_changed' },
  ]);
  expect(Object.keys(record.stages[1]!)).toEqual(['stage', 'status']);
  expect([record.outcome.ok, record.handlerEntered, record.modelContent]).toEqual([false, false, [textBlock('{"error":{"class":"precondition","kind":"binding_changed","message":"y"}}')]]);
});
