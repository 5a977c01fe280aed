import type { Binding } from '../../binding/index.ts';
import type { Failure, Outcome, Success } from '../../contract/index.ts';
import type { CallArguments, KeptFile, StageName } from '../call-record.ts';
import type { OutputCut } from '../output-limit.ts';
import type { ResultBlock, TextResultBlock } from '../result-block.ts';
import type { Hook, HookResult, PermissionDecision } from '../hook.ts';
import type { HookDecision } from '../permissions/index.ts';
import type { CallContext, RuntimeTool, ToolCall, ToolOutput } from '../tool.ts';

/** The pipeline's dependencies: all injected, all plain. */
export interface Pipeline {
  /** The tools registered now; a call runs the one registered under its request's pinned binding id. */
  readonly tools: Readonly<Record<string, RuntimeTool>>;
  /** In configured order; selected by Claude Code matchers against `toolNames`. */
  readonly hooks: readonly Hook[];
  readonly permission: (tool: RuntimeTool, hookDecision: HookDecision | undefined) => PermissionDecision;
  /** Model-facing arguments → contract arguments under the pinned binding. */
  readonly convert: (binding: Binding, args: unknown) => Outcome<{ readonly converted: unknown; readonly filled: readonly string[] }>;
  /** Keeps a result's full output (a lone text block's text, else the JSON of its blocks) when the output limit cut it. */
  readonly keepOutput: (actionId: string, text: string) => KeptFile;
  readonly session: { readonly id: string; readonly transcriptPath: string; readonly cwd: string };
  /** The subagent whose loop the call is of (hook input's `agent_id`, `agent_type`); absent for the run's own loop. */
  readonly agent?: { readonly id: string; readonly type: string };
  readonly runDir: string;
  /**
   * Aborted when the run is interrupted (SIGINT/SIGTERM): the signals of
   * running hooks and handlers abort with it (a command hook's process group
   * is killed), and no hook starts nor handler is entered afterwards.
   */
  readonly signal?: AbortSignal;
}

/**
 * One call on its way through the stages, as a stage reads it. A stage never
 * writes it: it returns what it adds (`Adds`), and the fold applies that to
 * the call's state before the next stage runs. Every field is always
 * present, `undefined` until the stage that finds it sets it, so the fold's
 * writes never change the state's shape (the engine keeps one hidden class
 * per call state); a stage names the fields it reads in its `needs`.
 */
export interface CallState {
  readonly call: ToolCall;
  readonly actionId: string;
  readonly pipeline: Pipeline;
  /** What the tool-specific check and the handler see (its `request` is the call's producing request). */
  readonly context: CallContext;
  readonly arguments: CallArguments;
  readonly hooks: readonly HookResult[];
  readonly handlerEntered: boolean;
  readonly tool: RuntimeTool | undefined;
  readonly binding: Binding | undefined;
  /** The input the handler gets: validated, and validated again after a hook's rewrite. */
  readonly input: unknown;
  /** What the PreToolUse hooks decided, for the permission policy. */
  readonly hookDecision: HookDecision | undefined;
  readonly permission: PermissionDecision | undefined;
  /** The handler's success, as it returned it. */
  readonly outcome: Success<ToolOutput> | undefined;
  readonly rawResultSha256: string | undefined;
  /** The tool's blocks as the model sees them, after the output limit. */
  readonly modelContent: readonly ResultBlock[] | undefined;
  /** Blocks hooks add for the model (a PostToolUse block reason): after the tool's, never inside its blocks. */
  readonly hookContent: readonly TextResultBlock[];
  readonly fullOutput: KeptFile | undefined;
  /** What the output limit cut or left out. */
  readonly outputCut: OutputCut | undefined;
}

/** What a stage adds to the state: any field but the call and what it runs with. */
export type Adds = Partial<Omit<CallState, 'call' | 'actionId' | 'pipeline' | 'context'>>;

/** The state before the first stage: only the call and what it runs with. */
export function seedState(call: ToolCall, actionId: string, pipeline: Pipeline, context: CallContext): CallState {
  return {
    call,
    actionId,
    pipeline,
    context,
    arguments: { original: call.arguments },
    hooks: [],
    handlerEntered: false,
    tool: undefined,
    binding: undefined,
    input: undefined,
    hookDecision: undefined,
    permission: undefined,
    outcome: undefined,
    rawResultSha256: undefined,
    modelContent: undefined,
    hookContent: [],
    fullOutput: undefined,
    outputCut: undefined,
  };
}

/**
 * A stage's answer: what it adds and the detail its record carries, or a
 * stop with the failure (and the stage it is recorded under, when that is not
 * the stage that found it). One shape for both, as for `CallState`.
 */
export interface Step {
  readonly adds: Adds;
  readonly detail: string | undefined;
  readonly failure: Failure | undefined;
  readonly at: StageName | undefined;
}

/**
 * A stage waiting on I/O (hooks, the handler): the promise it waits on and
 * what it does with the value. The stage hands the promise to the fold rather
 * than awaiting it itself, so the fold resumes in the very microtask the
 * promise settles in and goes on to the next stages in that same turn. Calls
 * that run side by side (one batch) therefore interleave exactly at their
 * I/O: a call whose hooks return after another call's handler interrupted the
 * run sees the interruption before it could enter its own handler.
 */
export interface Pending {
  readonly awaiting: Promise<unknown>;
  readonly resume: (value: unknown) => Step | Pending;
}

/** The state as a stage that needs `K` sees it: those fields are there. */
export type Has<K extends keyof CallState> = CallState & { readonly [P in K]: Exclude<CallState[P], undefined> };

/** One step of the pipeline, as data: its name in the record, what it reads, what it does. */
export interface CallStage<K extends keyof CallState = keyof CallState> {
  readonly name: StageName;
  /** Fields the stages before it in the list have set by the time it runs (a test checks the list). */
  readonly needs: readonly K[];
  readonly run: (state: Has<K>) => Step | Pending;
}

const NOTHING: Adds = {};

/** Goes on to the next stage. */
export function next(adds: Adds = NOTHING, detail?: string): Step {
  return { adds, detail, failure: undefined, at: undefined };
}

/** Stops the call here: the failure becomes its outcome and no later stage runs. */
export function stop(failure: Failure, adds: Adds = NOTHING, at?: StageName): Step {
  return { adds, detail: undefined, failure, at };
}

/** Waits for `awaiting`, then goes on with `resume` (see `Pending` for why a stage does not await it itself). */
export function after<T>(awaiting: Promise<T>, resume: (value: T) => Step | Pending): Pending {
  // The fold passes `resume` only the value `awaiting` settled with.
  return { awaiting, resume: resume as (value: unknown) => Step | Pending };
}
