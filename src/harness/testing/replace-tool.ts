/** Test code only: the excerpt's local tools with one of them changed. */
import { ok } from '../../contract/index.ts';
import { excerptTask } from '../../excerpt/index.ts';
import type { RuntimeTool } from '../../pipeline/index.ts';
import { localTools, type ToolProvider } from '../tools.ts';

/** The excerpt's local tools, with the tool named `name` replaced by what `change` makes of it. */
export function replacingTool(name: string, change: (tool: RuntimeTool) => RuntimeTool): ToolProvider {
  return async (snapshot, runId) => {
    const set = await localTools(excerptTask)(snapshot, runId);
    if (!set.ok) return set;
    return ok({ ...set.value, tools: set.value.tools.map((t) => (t.contract.name === name ? change(t) : t)) });
  };
}
