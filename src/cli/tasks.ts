/**
 * The task registry: the one file that imports a task folder (the architecture
 * test holds this). Both entries load on first use, each on its own, so
 * `--version` loads no task and `caplab serve` loads the task's fixture server
 * without the host (test/module-graph.test.ts).
 */
import type { Task } from '../harness/index.ts';
import type { ServeStreams } from '../mcp/index.ts';

/** The task the commands run: `demo`, `run`, `check`, `tools`, `skills`, `verify` and `serve`. */
export async function loadTask(): Promise<Task> {
  return (await import('../excerpt/index.ts')).excerptTask;
}

/** `caplab serve`: the task's fixture MCP server on stdio, until stdin ends. */
export async function serveTask(streams: ServeStreams): Promise<number> {
  return (await import('../excerpt/server/index.ts')).serve(streams);
}
