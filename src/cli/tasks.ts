/**
 * The task registry, by task id: the one file that imports a task folder
 * (the architecture test holds this). Each entry loads on first use, its
 * host side and its fixture server each on their own, so `--version` loads
 * no task and `caplab serve` loads the task's fixture server without the
 * host (test/module-graph.test.ts).
 */
import type { Task } from '../harness/index.ts';
import type { ServeStreams } from '../mcp/index.ts';

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
}

/** How the CLI hands a task the launch of its MCP server: the environment the server is started from. */
export interface McpLaunch {
  readonly envSource: Readonly<Record<string, string | undefined>>;
}

/** What a task folder gives the registry. */
interface TaskEntry {
  load(): Promise<{ readonly task: Task; readonly scenarios: TaskScenarios; overMcp?(launch: McpLaunch): Task }>;
  /** `caplab serve`: the task's fixture MCP server on stdio, until stdin ends. */
  serve(streams: ServeStreams): Promise<number>;
}

const TASKS: Readonly<Record<string, TaskEntry>> = {
  excerpt: {
    load: async () => {
      const excerpt = await import('../excerpt/index.ts');
      // The fixture server is this program's `serve`: the task is handed its launch, built on the entry only the CLI knows.
      const overMcp = ({ envSource }: McpLaunch): Task => excerpt.excerptTaskOverMcp({ envSource, launch: excerpt.fixtureLaunch({ devEntry: DEV_SERVE_ENTRY, envSource }) });
      return { task: excerpt.excerptTask, scenarios: excerpt.EXCERPT_SCENARIOS, overMcp };
    },
    serve: async (streams) => (await import('../excerpt/server/index.ts')).serve(streams),
  },
};

/** The task `demo`, `run`, `check`, `tools`, `skills` and `serve` take. */
export const COMMAND_TASK = 'excerpt';

/** The task of a record whose run_start names none: every record written before tasks had ids is the excerpt's. */
export const UNNAMED_TASK = 'excerpt';

/** The commands' task, its MCP server launched from `launch` (the CLI's environment). */
export async function loadTask(launch: McpLaunch = { envSource: {} }): Promise<CliTask> {
  const loaded = await TASKS[COMMAND_TASK]!.load();
  return { task: loaded.task, scenarios: loaded.scenarios, ...(loaded.overMcp ? { overMcp: loaded.overMcp(launch) } : {}) };
}

/** Every registered task by id (`verify` re-checks a record with the task it names). */
export async function loadTasks(): Promise<ReadonlyMap<string, Task>> {
  const loaded = await Promise.all(Object.entries(TASKS).map(async ([id, entry]) => [id, (await entry.load()).task] as const));
  return new Map(loaded);
}

/** `caplab serve`: the commands' task's fixture MCP server on stdio, until stdin ends. */
export async function serveTask(streams: ServeStreams): Promise<number> {
  return TASKS[COMMAND_TASK]!.serve(streams);
}
