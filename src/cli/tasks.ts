/**
 * The task registry, by task id: the one file that imports a task folder
 * (the architecture test holds this). Each entry loads on first use, its
 * host side and its fixture server each on their own, so `--version` loads
 * no task and `caplab serve` loads the task's fixture server without the
 * host (test/module-graph.test.ts).
 */
import type { Outcome } from '../contract/index.ts';
import type { Scenario, Task, TaskRecheck } from '../harness/index.ts';
import type { HttpServeIo, HttpServeOptions, ServeStreams } from '../mcp/index.ts';

/**
 * The development entry of `caplab serve`: `src/main.ts serve`, the same
 * entry and the same `serve()` the compiled binary runs with `serve`. Only
 * the CLI names the program's entry (the architecture test holds this).
 */
export const DEV_SERVE_ENTRY: readonly string[] = [new URL('../main.ts', import.meta.url).pathname, 'serve'];

/** A task's built-in scenarios: the embedded folder, the one `demo` runs, those `check` runs over MCP too (whose outcome the transport could change). */
export interface TaskScenarios {
  readonly folder: string;
  readonly demo: string;
  readonly overMcp: readonly string[];
}

/** A task as the commands run it: its tools local, the same task over MCP (where it serves tools), its scenarios. */
export interface CliTask {
  readonly task: Task;
  readonly scenarios: TaskScenarios;
  /** The task with its served tools from its own MCP server, launched as the CLI said; absent: no MCP transport. */
  readonly overMcp?: Task;
  /** The same, its server started as `serve --http` and reached over Streamable HTTP (`--transport http`); absent: no HTTP transport. */
  readonly overHttp?: Task;
}

/** How the CLI hands a task the launch of its MCP server: the environment the server is started from. */
export interface McpLaunch {
  readonly envSource: Readonly<Record<string, string | undefined>>;
}

/** A task built from one scenario file of it (its bytes as read): or why the file cannot run, before anything starts. */
export type ScenarioTask = (scenario: Scenario, file: Uint8Array) => Outcome<Task>;

/** What a task folder gives the registry. */
interface TaskEntry {
  /** The task as `verify` re-checks a record of it: loads what its recheck needs, nothing else. */
  recheck(): Promise<TaskRecheck>;
  /** The commands' task (`COMMAND_TASK`): its tools, its built-in scenarios, its MCP server. */
  load?(): Promise<{ readonly task: Task; readonly scenarios: TaskScenarios; overMcp?(launch: McpLaunch): Task; overHttp?(launch: McpLaunch): Task }>;
  /** A task whose run is its scenario's (`run --scenario FILE`, `check --scenarios DIR`): built from the file. */
  ofScenario?(): Promise<ScenarioTask>;
  /** `caplab serve`: the task's fixture MCP server on stdio, until stdin ends. */
  serve?(streams: ServeStreams): Promise<number>;
  /** `caplab serve --http`: the same server over Streamable HTTP, until a signal or stdin's end. */
  serveHttp?(options: HttpServeOptions, io: HttpServeIo): Promise<number>;
}

const loadExcerpt = async () => {
  const excerpt = await import('../excerpt/index.ts');
  // The fixture server is this program's `serve`: the task is handed its launch, built on the entry only the CLI knows.
  const overMcp = ({ envSource }: McpLaunch): Task => excerpt.excerptTaskOverMcp({ envSource, launch: excerpt.fixtureLaunch({ devEntry: DEV_SERVE_ENTRY, envSource }) });
  const overHttp = ({ envSource }: McpLaunch): Task =>
    excerpt.excerptTaskOverMcp({ envSource, launch: excerpt.fixtureLaunch({ devEntry: DEV_SERVE_ENTRY, envSource, http: true }), http: { tokenEnv: excerpt.FIXTURE_TOKEN_ENV } });
  return { task: excerpt.excerptTask, scenarios: excerpt.EXCERPT_SCENARIOS, overMcp, overHttp };
};

/** The expectations task's folder and its `output_valid` validator (Ajv: loaded only with it). */
const loadExpectations = async () => {
  const expectations = await import('../expectations/index.ts');
  return { expectations, validate: await expectations.loadOutputValidator() };
};

const TASKS: Readonly<Record<string, TaskEntry>> = {
  excerpt: {
    recheck: async () => (await loadExcerpt()).task,
    load: loadExcerpt,
    serve: async (streams) => (await import('../excerpt/server/index.ts')).serve(streams),
    serveHttp: async (options, io) => (await import('../excerpt/server/index.ts')).serveHttp(options, io),
  },
  expectations: {
    recheck: async () => {
      const { expectations, validate } = await loadExpectations();
      return expectations.expectationsRecheck(validate);
    },
    ofScenario: async () => {
      const { expectations, validate } = await loadExpectations();
      return (scenario, file) => expectations.taskOfScenario(scenario, file, validate);
    },
  },
};

/** The task `demo`, `run`, `check`, `tools`, `skills` and `serve` take. */
export const COMMAND_TASK = 'excerpt';

/** The task of a record whose run_start names none: every record written before tasks had ids is the excerpt's. */
export const UNNAMED_TASK = 'excerpt';

/** The commands' task, its MCP server launched from `launch` (the CLI's environment). */
export async function loadTask(launch: McpLaunch = { envSource: {} }): Promise<CliTask> {
  const loaded = await TASKS[COMMAND_TASK]!.load!();
  return {
    task: loaded.task,
    scenarios: loaded.scenarios,
    ...(loaded.overMcp ? { overMcp: loaded.overMcp(launch) } : {}),
    ...(loaded.overHttp ? { overHttp: loaded.overHttp(launch) } : {}),
  };
}

/** Every registered task's recheck by id (`verify` re-checks a record with the task it names). */
export async function loadTasks(): Promise<ReadonlyMap<string, TaskRecheck>> {
  const loaded = await Promise.all(Object.entries(TASKS).map(async ([id, entry]) => [id, await entry.recheck()] as const));
  return new Map(loaded);
}

/** The rechecks of the tasks named, those the registry has (`verify` loads only the one its record names: an excerpt record loads no ajv). */
export async function loadRechecks(ids: readonly string[]): Promise<ReadonlyMap<string, TaskRecheck>> {
  const known = [...new Set(ids)].filter((id) => Object.hasOwn(TASKS, id));
  return new Map(await Promise.all(known.map(async (id) => [id, await TASKS[id]!.recheck()] as const)));
}

/** The task a scenario of a task other than the commands' runs as (`undefined`: the commands' task runs it, as every built-in scenario). */
export async function scenarioTaskOf(id: string): Promise<ScenarioTask | undefined> {
  if (id === COMMAND_TASK) return undefined;
  const entry = TASKS[id];
  // The scenario schema admits only the tasks registered here (`SCENARIO_TASKS`): another id is the program's mistake.
  if (!entry?.ofScenario) throw new TypeError(`task ${JSON.stringify(id)} runs no scenario file of its own`);
  return entry.ofScenario();
}

/**
 * The task a run dir's record names (run_start's `task`, read from the
 * ledger's first line without trusting it: verify reads the whole record),
 * or the unnamed records' task when the line names none or cannot be read.
 */
export function recordTaskId(readFirstLine: () => string | undefined): string {
  try {
    const task = (JSON.parse(readFirstLine() ?? '') as { task?: unknown } | null)?.task;
    return typeof task === 'string' ? task : UNNAMED_TASK;
  } catch {
    return UNNAMED_TASK;
  }
}

/** `caplab serve`: the commands' task's fixture MCP server on stdio, until stdin ends. */
export async function serveTask(streams: ServeStreams): Promise<number> {
  return TASKS[COMMAND_TASK]!.serve!(streams);
}

/** `caplab serve --http`: the commands' task's fixture MCP server over Streamable HTTP. */
export async function serveHttpTask(options: HttpServeOptions, io: HttpServeIo): Promise<number> {
  return TASKS[COMMAND_TASK]!.serveHttp!(options, io);
}
