/** Test code only: the excerpt as the commands take it, its MCP form given by the test (or none). */
import { EXCERPT_SCENARIOS, excerptTask } from '../../excerpt/index.ts';
import type { Task } from '../../harness/index.ts';
import type { CliTask } from '../tasks.ts';

/** The excerpt task for `runCommand`, `checkCommand` and the rest; `overMcp` is what `--transport mcp` runs (absent: not available). */
export function excerptCli(overMcp?: Task): CliTask {
  return { task: excerptTask, scenarios: EXCERPT_SCENARIOS, ...(overMcp ? { overMcp } : {}) };
}
