import * as v from 'valibot';
import { bind } from '../../binding/index.ts';
import { ok, sha256Hex } from '../../contract/index.ts';
import { textBlock } from '../result-block.ts';
import { seedState, type CallState, type Pending, type Pipeline, type Step } from '../stages/index.ts';
import { attributesOf, type ProducingRequest, type RuntimeTool } from '../tool.ts';
import { echoContractWith } from './echo-contract.ts';

/** The echo contract the stage tests use: `{ word, times? }` → `{ echoed }`, 32-byte output limit. */
export const echoContract = echoContractWith(v.strictObject({ word: v.pipe(v.string(), v.minLength(1)), times: v.optional(v.number()) }));

/** A local echo tool; `overrides` replace any part (handler, check, attributes …). */
export function echoTool(overrides: Partial<RuntimeTool> = {}): RuntimeTool {
  return {
    contract: echoContract,
    binding: bind(echoContract, { implementation: { kind: 'local', version: 'echo/1' } }),
    attributes: attributesOf(echoContract),
    handler: async (input) => {
      const { word, times } = input as { word: string; times?: number };
      const echoed = word.repeat(times ?? 1);
      return ok({ data: { echoed }, content: [textBlock(echoed)], evidence: 'bytes observed now' });
    },
    ...overrides,
  };
}

/** The echo tool as served by the MCP server `server` (its binding names the server). */
export function servedEchoTool(server: string, overrides: Partial<RuntimeTool> = {}): RuntimeTool {
  const identity = { key: server, name: server, version: '1', protocolVersion: '2025-06-18', endpoint: { kind: 'stdio', argv: [server], cwd: '/', envNames: [] }, instanceId: 'i' } as const;
  return echoTool({ binding: bind(echoContract, { implementation: { kind: 'mcp', version: 'echo/1' }, server: identity }), ...overrides });
}

/** A pipeline around `tool` that allows everything, converts nothing and keeps output in name only; `overrides` replace any part. */
export function echoPipeline(tool: RuntimeTool, overrides: Partial<Pipeline> = {}): Pipeline {
  return {
    tools: { echo: tool },
    hooks: [],
    permission: () => ({ decision: 'allow', by: 'default', reason: 'read-only' }),
    convert: (_binding, args) => ok({ converted: args, filled: [] }),
    keepOutput: (actionId, text) => ({ path: `outputs/${actionId}.txt`, sha256: sha256Hex(text), bytes: new TextEncoder().encode(text).byteLength }),
    session: { id: 's', transcriptPath: '/dev/null', cwd: '/' },
    runDir: '/nonexistent',
    ...overrides,
  };
}

/** The request that offered `tool` as `echo`. */
export function offering(tool: RuntimeTool): ProducingRequest {
  return { id: 'req-01', payload: new Uint8Array(), payloadSha256: sha256Hex(''), bindings: { echo: tool.binding } };
}

/**
 * A hand-made state for one stage's test: the call `echo({ word: 'hi' })`
 * from a request that offered `pipeline`'s echo tool, with `set` standing in
 * for what earlier stages would have added.
 */
export function callState<S extends Partial<CallState>>(set: S, pipeline: Pipeline = echoPipeline(set.tool ?? echoTool())): CallState & S {
  const call = { id: 't1', name: 'echo', arguments: { word: 'hi' } };
  const request = offering(pipeline.tools['echo'] ?? echoTool());
  const context = { runDir: pipeline.runDir, actionId: 'act-01', toolCallId: call.id, request, signal: pipeline.signal ?? new AbortController().signal };
  return { ...seedState(call, 'act-01', pipeline, context), ...set };
}

/** A stage's answer once it is done waiting (as the fold would have it). */
export async function settle(answer: Step | Pending): Promise<Step> {
  let step = answer;
  while ('awaiting' in step) step = step.resume(await step.awaiting);
  return step;
}
