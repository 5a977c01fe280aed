/**
 * Test kit for the excerpt tools: a pipeline with permissive defaults, a
 * producing request built from real payload bytes, and a handler counter.
 * Test code only; shipped code never imports it.
 */
import { join } from 'node:path';
import { scratchDir } from '../../../test/scratch.ts';
import { ok, sha256Hex } from '../../contract/index.ts';
import type { Pipeline, ProducingRequest, RuntimeTool } from '../../pipeline/index.ts';
import { disclosedSources } from '../disclosure.ts';
import type { ExcerptRun } from '../run-state.ts';

/** Wraps a tool so the test can count handler entries. */
export function counted(tool: RuntimeTool): { tool: RuntimeTool; entered: () => number } {
  let n = 0;
  return {
    tool: { ...tool, handler: (input, context) => (n++, tool.handler(input, context)) },
    entered: () => n,
  };
}

/**
 * A producing request whose payload carries tool_result blocks with the given
 * sources' text; what it disclosed is kept in `run`, as the task's request
 * fields keep it.
 */
export function requestWith(run: ExcerptRun, tools: readonly RuntimeTool[], sourceIds: readonly string[], id = 'req-test'): ProducingRequest {
  const { snapshot } = run;
  const results = sourceIds.map((sid, i) => ({
    type: 'tool_result',
    tool_use_id: `toolu_${i}`,
    is_error: false,
    content: [{ type: 'text', text: snapshot.sources.find((s) => s.id === sid)!.text }],
  }));
  const payload = new TextEncoder().encode(JSON.stringify({ messages: [{ role: 'user', content: results }] }));
  run.disclose(id, disclosedSources(payload, snapshot, new Map(sourceIds.map((sid, i) => [`toolu_${i}`, [sid]]))));
  return {
    id,
    payload,
    payloadSha256: sha256Hex(payload),
    bindings: Object.fromEntries(tools.map((t) => [t.binding.tool, t.binding])),
  };
}

/** A pipeline that allows everything and converts nothing, writing under a temp dir removed when the test ends. */
export function testPipeline(tools: readonly RuntimeTool[], overrides: Partial<Pipeline> = {}): Pipeline {
  const runDir = scratchDir('caplab-test-');
  return {
    tools: Object.fromEntries(tools.map((t) => [t.binding.tool, t])),
    hooks: [],
    permission: () => ({ decision: 'allow', by: 'default', reason: 'test' }),
    convert: (_binding, args) => ok({ converted: args, filled: [] }),
    keepOutput: (actionId, text) => ({ path: `outputs/${actionId}.txt`, sha256: sha256Hex(text), bytes: new TextEncoder().encode(text).byteLength }),
    session: { id: 'test', transcriptPath: join(runDir, 'ledger.jsonl'), cwd: runDir },
    runDir,
    ...overrides,
  };
}
