import { join } from 'node:path';
import { fail, ok, type Outcome, type Success } from '../contract/index.ts';
import { ruleMatches, toolNames, type Hook, type Pipeline, type Rule, type RuntimeTool } from '../pipeline/index.ts';
import { decideAcceptance, withVerdict, type LoopResult } from './decide-acceptance.ts';
import type { RunEnding } from './ending.ts';
import { hostProvider, type Builtin, type HostServices } from './host-tools.ts';
import { runLoop, type LoopStep } from './loop.ts';
import type { ModelOrigin } from './model.ts';
import { openRecorded, type ConfiguredServers, type Unopened } from './open-tools.ts';
import { openRun, type OpenRun, type RunRecordOptions } from './open-run.ts';
import { runNames, type RunNames } from './run-names.ts';
import { Subagents } from './agent-tool/nested-loop.ts';
import type { Task, TaskRun } from './task.ts';
import { duplicateName, runtimeTable, type ServerReport, type ServerStart, type ToolProvider, type ToolSet } from './tools.ts';

/** Every request payload's `max_tokens` unless the host is given another. */
export const DEFAULT_MAX_TOKENS = 1024;

export interface RunOptions extends RunRecordOptions {
  readonly task: Task;
  /** Tools beyond the task's own (`task.tools`), after them: users' servers. */
  readonly providers?: readonly ToolProvider[];
  /** The host's own tools, after every provider's (ToolSearch when the run defers); each gets the run's `HostServices`. */
  readonly builtins?: readonly Builtin[];
  /**
   * Defer rules (`--defer-tool`, a scenario's `defer`; names checked by the
   * host): each tool they match is sent with `defer_loading` and callable
   * only once disclosed. A run with any names format 8 and needs ToolSearch
   * among its built-ins.
   */
  readonly defer?: readonly Rule[];
  readonly cwd: string;
  readonly hooks: readonly Hook[];
  readonly permission: Pipeline['permission'];
  readonly convert: Pipeline['convert'];
  /** Every request payload's `max_tokens`, a positive integer (default `DEFAULT_MAX_TOKENS`, 1024). */
  readonly maxTokens?: number;
  /** Requests at most (default 8): the loop stops `max_requests` after that many without a final answer. */
  readonly maxRequests?: number;
  readonly onStep?: (step: LoopStep) => void;
}

/** A finished run, ready to report. */
export interface RunOutcome {
  readonly runId: string;
  readonly runDir: string;
  readonly transport: 'local' | 'mcp';
  readonly server?: ServerReport;
  /** The servers a user configured, as run_start recorded them (absent when the run had none). */
  readonly servers?: readonly ServerStart[];
  /** The model that answered: how the run's responses and usage are labelled. */
  readonly model: { readonly name: string; readonly origin: ModelOrigin; readonly scenario: string | null };
  /** The loop, and the verdict decided after it. */
  readonly loop: LoopResult;
  readonly head: string;
  readonly events: number;
  /** How it ended: `exitCodeOf` gives the exit code, `summaryOf` the line. */
  readonly ending: RunEnding;
  readonly closeReport: unknown;
}

/**
 * Runs one scenario end to end: open the run (dir and ledger, what the task
 * starts from), open its tools (the task's providers, those given, the
 * built-ins), the loop, acceptance after it, and the end (`OpenRun.end`:
 * reaping, close, run_end, seal). Every step is recorded before it is
 * reported. Two tools under one name, or a `maxTokens` or `maxRequests` that is not a
 * positive integer, are refused before any work (`invalid_arguments/duplicate_tool`,
 * `invalid_arguments/bad_option`: nothing opened, no run dir made). Before the
 * servers close and again after, processes that escaped their group (setsid)
 * are killed (Linux, as a child subreaper) and listed in `run_end.orphans`;
 * those found by a server's own close are in its close report.
 */
export async function runTask(options: RunOptions): Promise<Outcome<RunOutcome>> {
  const taskRun: TaskRun = Object.freeze({ runId: options.runId });
  const names = runNames();
  const subagents = new Subagents();
  const host = hostTools(options, taskRun, names.child('host'), subagents);
  const maxTokens = maxTokensOf(options);
  const maxRequests = options.maxRequests;
  const badRequests = maxRequests !== undefined && !(Number.isSafeInteger(maxRequests) && maxRequests > 0) ? fail('invalid_arguments', 'bad_option', `maxRequests must be a positive integer, not ${String(maxRequests)}`) : undefined;
  const refusal = !maxTokens.ok ? maxTokens : (badRequests ?? host.clash);
  if (!refusal.ok && !options.opened) return refusal;
  const opened = openRun(options);
  if (!opened.ok) return opened;
  const run = opened.value;
  let answered = 0;
  const onStep = (step: LoopStep): void => {
    if (step.type === 'response') answered++;
    options.onStep?.(step);
  };
  try {
    const begun = run.begin(options.task.start?.(taskRun));
    if (!begun.ok) return await run.end({ type: 'broken', failure: begun, answered });
    const toolSet = refusal.ok ? await openTable(host.providers, taskRun, options.defer ?? []) : { ok: false as const, failure: refusal };
    if (!toolSet.ok) return await run.end({ type: 'unopened', failure: toolSet.failure, ...(toolSet.servers ? { servers: toolSet.servers } : {}) });
    host.table.current = toolSet.value.table;
    run.holdTools(toolSet.value.close);
    const { servers } = toolSet.value;
    const defer = (options.defer ?? []).map((rule) => rule.text);
    const started = run.start({ transport: toolSet.value.transport, server: toolSet.value.server ?? null, bindings: Object.values(toolSet.value.table).map((t) => t.binding), ...(servers ? { servers } : {}), ...(defer.length > 0 ? { defer } : {}) });
    if (!started.ok) return await run.end({ type: 'broken', failure: started, answered });
    const context = loopOptions(options, { run, taskRun, toolSet: toolSet.value, names, onStep, maxTokens: maxTokens.ok ? maxTokens.value : DEFAULT_MAX_TOKENS });
    subagents.parent = context;
    const looped = await runLoop(context);
    const loop = subagents.runs.length > 0 ? { ...looped, subagents: [...subagents.runs] } : looped;
    const decided = decideAcceptance({ task: options.task, run: taskRun, recorder: run.recorder, readFile: (path) => run.readFile(path), onStep }, loop);
    const result = withVerdict(loop, decided);
    const ended = await run.end({ type: 'loop', loop: result, answered });
    if (!ended.ok) return ended;
    const { transport, server } = toolSet.value;
    const model = { name: options.model.name, origin: options.model.origin, scenario: options.model.record.scenario };
    return ok({ runId: options.runId, runDir: run.dir, transport, ...(server ? { server } : {}), ...(servers ? { servers: servers.start } : {}), model, loop: result, ...ended.value });
  } catch (error) {
    await run.end({ type: 'crashed', error, answered });
    throw error;
  }
}

/** The run's tool table once open: what the built-ins' services read. */
interface TableCell {
  current: Readonly<Record<string, RuntimeTool>>;
}

/**
 * The run's providers in the order the model sees their tools — the task's,
 * those given, then the built-ins over the run's services — and whether two
 * of them offer one name.
 */
function hostTools(options: RunOptions, run: TaskRun, names: RunNames, nesting: Subagents): { providers: readonly ToolProvider[]; clash: Outcome<void>; table: TableCell } {
  const table: TableCell = { current: {} };
  const services: HostServices = { tools: () => table.current, names, signal: options.signal ?? new AbortController().signal, permission: (tool) => options.permission(tool, undefined), nesting };
  const builtins = options.builtins ?? [];
  const providers = [...options.task.tools(run), ...(options.providers ?? []), ...(builtins.length > 0 ? [hostProvider(builtins, services)] : [])];
  return { providers, clash: duplicateName(providers.flatMap((provider) => provider.offers)), table };
}

/**
 * Opens the providers into one tool set, and checks what opened as the
 * offers were: one name, one tool. When they do not open, the configured
 * servers that had started (closed again) go on record with the failure.
 */
async function openTable(providers: readonly ToolProvider[], run: TaskRun, defer: readonly Rule[]): Promise<Success<ToolSet & { readonly table: Readonly<Record<string, RuntimeTool>> }> | Unopened> {
  const toolSet = await openRecorded(providers, run);
  if (!toolSet.ok) return toolSet;
  const table = runtimeTable(toolSet.value.tools);
  if (!table.ok) {
    await toolSet.value.close();
    const servers: ConfiguredServers | undefined = toolSet.value.servers;
    return { ok: false, failure: table, ...(servers ? { servers } : {}) };
  }
  return ok({ ...toolSet.value, table: deferredTable(table.value, defer) });
}

/**
 * The table with `deferred` set on each tool a defer rule names (and cleared
 * on every other: the rules alone decide). Tool rules are looked up by name,
 * so deferring thousands of tools one by one stays linear.
 */
function deferredTable(table: Readonly<Record<string, RuntimeTool>>, defer: readonly Rule[]): Readonly<Record<string, RuntimeTool>> {
  if (defer.length === 0) return table;
  const named = new Set(defer.flatMap((rule) => (rule.kind === 'tool' ? [rule.name] : [])));
  const servers = defer.filter((rule) => rule.kind === 'server');
  const marked = Object.entries(table).map(([name, tool]) => {
    const names = toolNames(tool);
    const deferred = names.some((n) => named.has(n)) || servers.some((rule) => ruleMatches(rule, names));
    return [name, tool.attributes.deferred === deferred ? tool : { ...tool, attributes: { ...tool.attributes, deferred } }] as const;
  });
  return Object.fromEntries(marked);
}

/** A counter from 0, shared by every loop of one run. */
function counter(): { next(): number } {
  let n = 0;
  return { next: () => n++ };
}

/** The host's `maxTokens`, checked: a positive integer (`invalid_arguments/bad_option`). */
function maxTokensOf(options: Pick<RunOptions, 'maxTokens'>): Outcome<number> {
  const value = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  if (Number.isSafeInteger(value) && value > 0) return ok(value);
  return fail('invalid_arguments', 'bad_option', `maxTokens must be a positive integer, not ${String(value)}`);
}

/** What a run hands its loop beyond the host's options. */
interface LoopSetup {
  readonly run: OpenRun;
  readonly taskRun: TaskRun;
  readonly toolSet: ToolSet & { readonly table: Readonly<Record<string, RuntimeTool>> };
  readonly names: RunNames;
  readonly onStep: (step: LoopStep) => void;
  readonly maxTokens: number;
}

/** What the loop runs with: the open run's recorder, the table that opened, the run's root names, the host's pipeline. */
function loopOptions(options: RunOptions, setup: LoopSetup): Parameters<typeof runLoop>[0] {
  const { run, toolSet } = setup;
  return {
    task: options.task,
    run: setup.taskRun,
    model: options.model,
    maxTokens: setup.maxTokens,
    ...(options.maxRequests !== undefined ? { maxRequests: options.maxRequests } : {}),
    tools: () => toolSet.table,
    pipeline: {
      hooks: options.hooks,
      permission: options.permission,
      convert: options.convert,
      session: { id: options.runId, transcriptPath: join(run.dir, 'ledger.jsonl'), cwd: options.cwd },
      runDir: run.dir,
      ...(options.signal ? { signal: options.signal } : {}),
    },
    recorder: run.recorder,
    names: setup.names,
    ...(options.method ? { method: options.method } : {}),
    ...((options.defer ?? []).length > 0 ? { defers: true } : {}),
    ...(toolSet.protocolOf ? { protocolOf: toolSet.protocolOf } : {}),
    onStep: setup.onStep,
    // A run that may start subagents counts its requests over every level (a replay answers them in that order).
    ...((options.agents ?? []).length > 0 ? { sequence: counter() } : {}),
  };
}
