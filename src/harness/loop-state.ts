import type { Failure } from '../contract/index.ts';
import type { Pipeline, ProducingRequest, ProtocolExchange, RuntimeTool } from '../pipeline/index.ts';
import type { AcceptanceCheck } from './acceptance.ts';
import type { Intent } from './intent.ts';
import type { Message, Model, ModelResponse, TextBlock } from './model.ts';
import type { WrittenFile } from '../ledger/index.ts';
import type { RunRecorder } from './recorder.ts';
import type { RecordedCall } from './recorded-call.ts';
import type { RequestNames, RunNames } from './run-names.ts';
import type { Task, TaskRun } from './task.ts';
import type { SubagentRun } from './agent-tool/nested-loop.ts';

/** The method stage a request belongs to: one of the task's stages, decided by the host from what has happened. */
export type MethodStage = string;

/** Method material support (skills): blocks for a stage, and adoption from payload bytes. */
export interface MethodSupport {
  /** `runDir` names the run (tool mode keeps one catalog per run). */
  blocks(stage: MethodStage, runDir?: string): readonly TextBlock[];
  adoption(stage: MethodStage, payload: Uint8Array, runDir?: string): unknown;
  /** Tool mode: what a response's recorded calls made visible to the next request's catalog (dynamic discovery), recorded before it; a refused write stops the loop. */
  observe?(calls: readonly RecordedCall[], recorder: RunRecorder, runDir: string): Failure | undefined;
  /** Tool mode: the package names the payload's `<skills>` block lists, read from its bytes (each request records them as `skill_catalog`). */
  catalog?(payload: Uint8Array): readonly string[];
}

/** A step, streamed as it happens (for human output), always after it is recorded; a subagent's own steps name it (`agent`). */
export type LoopStep = (
  | { readonly type: 'request'; readonly intent: Intent }
  | { readonly type: 'response'; readonly requestId: string; readonly response: ModelResponse }
  | { readonly type: 'call'; readonly record: RecordedCall }
  | { readonly type: 'acceptance'; readonly checks: readonly AcceptanceCheck[]; readonly accepted: boolean }
  | { readonly type: 'subagent_start'; readonly agentId: string; readonly agentType: string; readonly tools: readonly string[] }
  | { readonly type: 'subagent_end'; readonly agentId: string; readonly stop: string; readonly requests: number; readonly toolCalls: number }
) & { readonly agent?: string };

/** What every step of one loop runs with: the same for the whole loop. */
export interface LoopContext {
  readonly task: Task;
  /** The run the task is handed (its request fields and acceptance get the same object). */
  readonly run: TaskRun;
  readonly model: Model;
  /** Every request payload's `max_tokens` (the host's option). */
  readonly maxTokens: number;
  /** The tool table in effect now. Calls are still resolved under their request's pinned bindings. */
  readonly tools: () => Readonly<Record<string, RuntimeTool>>;
  /** What every call runs with, but its tool table and where its full output is kept (the loop gives those). */
  readonly pipeline: Omit<Pipeline, 'tools' | 'keepOutput'>;
  readonly recorder: RunRecorder;
  /** The scope every request and action name of this loop comes from. */
  readonly names: RunNames;
  readonly method?: MethodSupport;
  /** The run defers tools: each request records what its payload disclosed (`toolDisclosure` of its bytes), and calls are resolved under it. */
  readonly defers?: boolean;
  /** The protocol exchange behind an action (MCP), failed calls included; absent for local tools. */
  readonly protocolOf?: (actionId: string) => ProtocolExchange | undefined;
  readonly onStep?: (step: LoopStep) => void;
  /** A refusal of a call before it runs, of this loop's own (a subagent's: an Agent call inside it); the call is recorded refused, its handler never entered. */
  readonly refuseCall?: (call: { readonly id: string; readonly name: string }) => Failure | undefined;
  /** Counts every request of the run, over every level, once a run offers subagents (`Model.respond`'s `sequence`). */
  readonly sequence?: { next(): number };
  /** The subagent this loop is (its steps' `agent`), absent for the run's own loop. */
  readonly agent?: { readonly id: string; readonly type: string };
}

/** One request of the run, as recorded: its intent, what was sent, and its response once that is recorded. */
export interface RequestRecord {
  readonly intent: Intent;
  /** Its names (id, payload and response files), from the loop's scope. */
  readonly names: RequestNames;
  /** The request as sent: id, exact payload bytes and hash, the bindings it pinned. */
  readonly sent: ProducingRequest;
  readonly response?: ModelResponse;
  readonly responseFile?: WrittenFile;
}

/** What the loop has done so far. A step returns a new state; none changes one. */
export interface LoopState {
  /** The conversation the next request carries. */
  readonly messages: readonly Message[];
  /** Every request recorded (counted once recorded, so run_end's count is the ledger's even when its response is not). */
  readonly requests: readonly RequestRecord[];
  /** Every call recorded, in order. */
  readonly calls: readonly RecordedCall[];
}

/**
 * Why the loop stopped: the model finished, the script ran out, the request
 * bound was hit, the run was interrupted, or a step was refused (`failure`
 * says which: a loop bound, a record limit, a write the record could not take).
 */
export type LoopStop = 'final_answer' | 'script_exhausted' | 'max_requests' | 'interrupted' | 'failed';

/** What the loop did: its requests and calls, and why it stopped. No verdict: that is decided after it. */
export interface LoopRun {
  readonly requests: readonly RequestRecord[];
  readonly calls: readonly RecordedCall[];
  readonly stop: LoopStop;
  /** Why a `failed` loop stopped. */
  readonly failure?: Failure;
  /** The subagents its Agent calls ran (each one's requests and calls), when any ran. */
  readonly subagents?: readonly SubagentRun[];
}
