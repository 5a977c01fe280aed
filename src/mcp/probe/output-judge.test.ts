import { afterEach, describe, expect, test } from 'bun:test';
import { LIMITS } from '../../contract/index.ts';
import { JUDGE_WORKER_IN_BINARY, judgeWorkerSource, OutputJudge } from './output-judge.ts';
import { CALL_CHECKS, judgeResult, type Judging } from './probe-calls.ts';
import type { ToolRuntime } from './probe-tools.ts';
import { versionProfile } from '../client/index.ts';
import { BACKTRACK_PATTERN, hostileServer, type HostileMode } from './testing/hostile-server.ts';

/**
 * Judging a result within bounds (issue 20): the result's depth is checked
 * before anything walks it, and the outputSchema validation runs on a worker
 * that is stopped at judging's own deadline or at a signal.
 */
const PROFILE = versionProfile('2025-06-18')!;
const judges: OutputJudge[] = [];
afterEach(() => judges.splice(0).forEach((judge) => judge.close()));

function judging(timeoutMs: number, signal?: AbortSignal): Judging & { judge: OutputJudge } {
  const judge = new OutputJudge();
  judges.push(judge);
  return { judge, timeoutMs, ...(signal ? { signal } : {}) };
}

/** A mode's tools/call result and its tool's runtime, as probe holds them for a called tool. */
function hostileCall(mode: HostileMode, count = 1_000): { result: Record<string, unknown>; runtime: ToolRuntime } {
  const lines: string[] = [];
  const handle = hostileServer(mode, count, (line) => lines.push(line));
  handle({ id: 1, method: 'tools/list' });
  handle({ id: 2, method: 'tools/call', params: { name: 'judge_me' } });
  const [listing, call] = lines.map((line) => JSON.parse(line) as { result: Record<string, unknown> });
  const tool = (listing!.result['tools'] as { outputSchema: object }[])[0]!;
  return { result: call!.result, runtime: { hasOutputSchema: true, output: { schema: tool.outputSchema, mode: { dialect: '2020-12', strict: true } } } };
}

describe('judging a result', () => {
  test('a result nested deeper than probeResultDepth: result_too_deep, every check not made, no worker started (no RangeError)', async () => {
    const { result, runtime } = hostileCall('deep_result', 60_000);
    const bounds = judging(60_000);
    const call = await judgeResult('judge_me', result, runtime, PROFILE, 3, bounds);
    expect(call).toMatchObject({ outcome: 'failed', ms: 3, outputSchema: 'not_checked', notChecked: [...CALL_CHECKS] });
    expect(call.findings).toEqual([expect.objectContaining({ class: 'protocol', kind: 'result_too_deep', basis: 'caplab host rule', tool: 'judge_me', message: expect.stringContaining(`${LIMITS.probeResultDepth} levels`) })]);
    expect(bounds.judge.started).toBe(0);
  });

  test('a backtracking pattern: judging_timeout at its own deadline names the check, the rest not checked; the next call gets a fresh worker', async () => {
    const { result, runtime } = hostileCall('backtrack');
    expect(JSON.stringify(runtime.output?.schema)).toContain(BACKTRACK_PATTERN);
    const bounds = judging(300);
    const call = await judgeResult('judge_me', result, runtime, PROFILE, 1, bounds);
    expect(call).toMatchObject({ outcome: 'result', ms: 1, outputSchema: 'not_checked', notChecked: ['outputSchema', 'text'] });
    expect(call.findings).toEqual([
      expect.objectContaining({ class: 'timeout', kind: 'judging_timeout', basis: 'caplab host rule', tool: 'judge_me', evidence: expect.stringContaining('outputSchema') }),
    ]);
    // Judging time is its own, apart from the call's `ms`.
    expect(call.judgingMs).toEqual(expect.any(Number));
    // A fresh worker loads ajv first: a generous deadline, so a loaded machine cannot make this call late.
    const next = await judgeResult('judge_me', { content: [{ type: 'text', text: '{"words":["aa"]}' }], structuredContent: { words: ['aa'] } }, runtime, PROFILE, 1, { ...bounds, timeoutMs: 60_000 });
    expect([next.outputSchema, next.findings, bounds.judge.started]).toEqual(['valid', [], 2]);
  });

  test('a signal during judging stops it at once: not checked, no finding', async () => {
    const { result, runtime } = hostileCall('backtrack');
    const controller = new AbortController();
    const bounds = judging(60_000, controller.signal);
    const pending = judgeResult('judge_me', result, runtime, PROFILE, 1, bounds);
    controller.abort('SIGTERM');
    expect(await pending).toMatchObject({ outcome: 'result', outputSchema: 'not_checked', notChecked: ['outputSchema', 'text'], findings: [] });
  });

  test('valid and invalid structuredContent are told apart on the worker, which is started once and reused', async () => {
    const runtime: ToolRuntime = { hasOutputSchema: true, output: { schema: { type: 'object', properties: { n: { type: 'integer' } } }, mode: { dialect: '2020-12', strict: true } } };
    const bounds = judging(60_000);
    const ok = await judgeResult('t', { content: [{ type: 'text', text: '{"n":1}' }], structuredContent: { n: 1 } }, runtime, PROFILE, 1, bounds);
    const bad = await judgeResult('t', { content: [{ type: 'text', text: '{"n":"x"}' }], structuredContent: { n: 'x' } }, runtime, PROFILE, 1, bounds);
    expect([ok.outputSchema, ok.findings]).toEqual(['valid', []]);
    expect(bad).toMatchObject({ outputSchema: 'invalid', findings: [{ kind: 'output_schema_violation', evidence: '/n must be integer' }] });
    expect(bounds.judge.started).toBe(1);
  });
});

test('the worker is found beside its module in development and by its path under src/ in the binary', () => {
  expect(judgeWorkerSource(false)).toBe(new URL('./output-judge-worker.ts', import.meta.url).href);
  expect(judgeWorkerSource(true)).toBe(JUDGE_WORKER_IN_BINARY);
});
