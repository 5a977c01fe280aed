/** Test code only: a task with its tools swapped, or the excerpt with one of its tools changed. */
import { ok } from '../../contract/index.ts';
import { excerptTask } from '../../excerpt/index.ts';
import type { RuntimeTool } from '../../pipeline/index.ts';
import type { Task, TaskRun } from '../task.ts';
import type { ToolProvider } from '../tools.ts';

/** The task with these providers in place of its own. */
export function withTools(task: Task, tools: (run: TaskRun) => readonly ToolProvider[]): Task {
  return { ...task, tools };
}

/** The provider with each opened tool replaced by what `change` makes of it (offers unchanged). */
export function changingTools(provider: ToolProvider, change: (tool: RuntimeTool) => RuntimeTool): ToolProvider {
  return {
    offers: provider.offers,
    open: async (run) => {
      const set = await provider.open(run);
      return set.ok ? ok({ ...set.value, tools: set.value.tools.map(change) }) : set;
    },
  };
}

/** `task` (default: the excerpt, its tools local) with the tool named `name` replaced by what `change` makes of it. */
export function replacingTool(name: string, change: (tool: RuntimeTool) => RuntimeTool, task: Task = excerptTask): Task {
  return withTools(task, (run) => task.tools(run).map((provider) => changingTools(provider, (t) => (t.contract.name === name ? change(t) : t))));
}
