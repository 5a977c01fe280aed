/**
 * Test code only: what one loop step runs with, in memory — a small echo
 * task and tool, a scripted model, a memory recorder, the run's root names —
 * so a step is tested alone, fed its inputs, without a run dir or a run.
 */
import * as v from 'valibot';
import { bind, convertArguments } from '../../binding/index.ts';
import { ok, type Contract } from '../../contract/index.ts';
import { attributesOf, textBlock, type RuntimeTool, type ToolAttributes } from '../../pipeline/index.ts';
import type { LoopContext, LoopState } from '../loop-state.ts';
import type { Model } from '../model.ts';
import { runNames } from '../run-names.ts';
import { scriptedModel, type Scenario } from '../scenario.ts';
import type { Task } from '../task.ts';
import { memoryRecorder, type MemoryRecorder } from './memory-recorder.ts';

/** `echo`: a word in, the word back; its output limit (32 bytes) cuts a long word, so its full output is kept. */
export const ECHO = {
  name: 'echo',
  version: '1.0.0',
  discovery: 'Echo a word.',
  description: 'Echoes a word.',
  input: v.strictObject({ word: v.string() }),
  result: v.strictObject({ echoed: v.string() }),
  effect: 'read',
  readOnly: true,
  destructive: false,
  idempotent: true,
  concurrencySafe: true,
  openWorld: false,
  identity: 'test',
  preconditions: [],
  limits: { timeoutMs: 1000, maxResultBytes: 32 },
  completionEvidence: 'bytes observed now',
  errorClasses: ['invalid_arguments'],
} as const satisfies Contract;

/** The echo tool under implementation `version`, with `handler` in place of its own (it counts its calls in `entered`). */
export function echoTool(version = 'echo/1', attributes: Partial<ToolAttributes> = {}, handler?: RuntimeTool['handler']): RuntimeTool & { readonly entered: string[] } {
  const entered: string[] = [];
  return {
    entered,
    contract: ECHO,
    binding: bind(ECHO, { implementation: { kind: 'local', version } }),
    attributes: attributesOf(ECHO, attributes),
    handler: async (input, context) => {
      entered.push(context.actionId);
      if (handler) return handler(input, context);
      const { word } = input as { word: string };
      return ok({ data: { echoed: word }, content: [textBlock(word)], evidence: 'bytes observed now' });
    },
  };
}

/** A task of nothing but a prompt: its steps need no tool of its own (the context gives the table). */
export const STEP_TASK: Task = {
  id: 'steps',
  prompt: { user: 'Echo one word.', rule: 'Echo exactly once.' },
  tools: () => [],
  acceptance: { live: () => ({ checks: [], files: [], fields: {} }), recorded: () => ok([]) },
};

/** A scripted model over these steps (`Scenario.responses`). */
export function scripted(responses: Scenario['responses']): Model {
  return scriptedModel({ name: 'steps', description: 'a loop step test', expect: { accepted: true }, responses });
}

/** One tool call of a scripted step. */
export const echoCall = (id: string, word: string): { id: string; name: string; arguments: unknown } => ({ id, name: 'echo', arguments: { word } });

/** The state before the first request: only the task's prompt. */
export function startState(task: Pick<Task, 'prompt'> = STEP_TASK): LoopState {
  return { messages: [{ role: 'user', content: task.prompt.user }], requests: [], calls: [] };
}

/** A step's context: the echo tool, a model answering `done`, a memory recorder; override what the test is about. */
export function stepContext(overrides: Partial<LoopContext> & { readonly recorder?: MemoryRecorder } = {}): LoopContext & { readonly recorder: MemoryRecorder } {
  const table = { echo: echoTool() };
  return {
    task: STEP_TASK,
    run: { runId: 'steps' },
    model: scripted([{ text: 'done', usage: { input_tokens: 1, output_tokens: 1 } }]),
    maxTokens: 1024,
    tools: () => table,
    pipeline: {
      hooks: [],
      permission: () => ({ decision: 'allow', by: 'default', reason: 'test' }),
      convert: convertArguments,
      session: { id: 'steps', transcriptPath: '/nonexistent/ledger.jsonl', cwd: '/' },
      runDir: '/nonexistent',
    },
    names: runNames(),
    ...overrides,
    recorder: overrides.recorder ?? memoryRecorder(),
  };
}
