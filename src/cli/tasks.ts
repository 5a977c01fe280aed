/**
 * The task registry: the one file that imports a task folder (the architecture
 * test holds this). Every entry loads on first use, each on its own, so
 * `--version` loads no task and `caplab serve` loads the task's fixture server
 * without the host (test/module-graph.test.ts).
 */
import type { Task } from '../harness/index.ts';
import type { Launch, ServeStreams } from '../mcp/index.ts';

/**
 * The development entry of `caplab serve`: `src/main.ts serve`, the same
 * entry and the same `serve()` the compiled binary runs with `serve`. Only
 * the CLI names the program's entry (the architecture test holds this).
 */
export const DEV_SERVE_ENTRY: readonly string[] = [new URL('../main.ts', import.meta.url).pathname, 'serve'];

/** The task the commands run: `demo`, `run`, `check`, `tools`, `skills`, `verify` and `serve`. */
export async function loadTask(): Promise<Task> {
  return (await import('../excerpt/index.ts')).excerptTask;
}

/** How the host starts the task's fixture server: this program's `serve`, its environment built from `envSource`. */
export async function taskServerLaunch(envSource: Readonly<Record<string, string | undefined>>): Promise<Launch> {
  return (await import('../excerpt/index.ts')).fixtureLaunch({ devEntry: DEV_SERVE_ENTRY, envSource });
}

/** `caplab serve`: the task's fixture MCP server on stdio, until stdin ends. */
export async function serveTask(streams: ServeStreams): Promise<number> {
  return (await import('../excerpt/server/index.ts')).serve(streams);
}
