import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { EXIT, exitCodeOf } from '../base/index.ts';
import { bind } from '../binding/index.ts';
import { LIMITS, ok } from '../contract/index.ts';
import { attributesOf, parseRules, textBlock, type RuntimeTool } from '../pipeline/index.ts';
import type { Model } from './model.ts';
import { runTask } from './run.ts';
import { ECHO, scripted, STEP_TASK } from './testing/loop-kit.ts';
import { testHost } from './testing/test-host.ts';
import { toolSearch } from './tool-search/tool-search.ts';
import type { ToolProvider } from './tools.ts';

/**
 * LIMITS.deferredTools (the Messages API's cap): a run that would send more
 * deferred tools is precondition/too_many_deferred before request 1 — nothing
 * sent, nothing recorded of a request, run failed, exit 1; at the cap it goes on.
 */

/** `count` generated local tools, pool_0 … pool_<count-1>, each echo's contract under its own name. */
function pool(count: number): ToolProvider {
  const tools: RuntimeTool[] = Array.from({ length: count }, (_, i) => {
    const contract = { ...ECHO, name: `pool_${i}` };
    return {
      contract,
      binding: bind(contract, { implementation: { kind: 'local', version: 'pool/1' } }),
      attributes: attributesOf(contract),
      handler: async () => ok({ data: { echoed: 'x' }, content: [textBlock('x')], evidence: 'e' }),
    };
  });
  return {
    offers: tools.map((t) => ({ binding: { tool: t.binding.tool }, contract: t.contract, implementation: t.binding.implementation })),
    open: async () => ok({ transport: 'local', tools, close: async () => undefined }),
  };
}

/** A scripted model that counts the requests it was sent. */
function countingModel(): { model: Model; sent: () => number } {
  const inner = scripted([{ text: 'done', usage: { input_tokens: 1, output_tokens: 1 } }]);
  let sent = 0;
  return { model: { ...inner, respond: (request) => (sent++, inner.respond(request)) }, sent: () => sent };
}

async function deferring(count: number) {
  const names = Array.from({ length: count }, (_, i) => `pool_${i}`);
  const rules = parseRules(names, '--defer-tool');
  if (!rules.ok) throw new Error(rules.message);
  const { model, sent } = countingModel();
  const outcome = await runTask({
    task: { ...STEP_TASK, tools: () => [pool(count)] },
    model,
    runId: 'pool',
    runDir: join(scratchDir('caplab-pool-'), 'run'),
    ...testHost(),
    builtins: [toolSearch()],
    defer: rules.value,
  });
  if (!outcome.ok) throw new Error(outcome.message);
  const events = readFileSync(join(outcome.value.runDir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  return { outcome: outcome.value, sent: sent(), events };
}

test(`${LIMITS.deferredTools + 1} deferred tools: precondition/too_many_deferred before request 1, nothing sent, run failed, exit 1`, async () => {
  const { outcome, sent, events } = await deferring(LIMITS.deferredTools + 1);
  expect(sent).toBe(0);
  expect(events.filter((e) => e.type === 'request')).toEqual([]);
  expect(outcome.ending.type).toBe('failed');
  const end = events.at(-1);
  expect([end.type, end.ending, end.exit_code, end.requests]).toEqual(['run_end', 'failed', EXIT.failed, 0]);
  expect(end.cause).toStartWith(`precondition/too_many_deferred: ${LIMITS.deferredTools + 1} tools are deferred`);
  expect(exitCodeOf(outcome.ending)).toBe(EXIT.failed);
});

test(`exactly ${LIMITS.deferredTools} deferred tools are sent, each with defer_loading: true, ToolSearch not deferred`, async () => {
  const { outcome, sent, events } = await deferring(LIMITS.deferredTools);
  expect(sent).toBe(1);
  const request = events.find((e) => e.type === 'request');
  const payload = JSON.parse(readFileSync(join(outcome.runDir, request.payload.path), 'utf8'));
  expect(payload.tools.length).toBe(LIMITS.deferredTools + 1);
  expect(payload.tools.filter((t: { defer_loading?: unknown }) => t.defer_loading === true).length).toBe(LIMITS.deferredTools);
  expect(payload.tools.at(-1)).toMatchObject({ name: 'ToolSearch' });
  expect('defer_loading' in payload.tools.at(-1)).toBe(false);
  expect(outcome.ending.type).not.toBe('failed');
});
