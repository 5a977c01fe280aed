import { ok, type Outcome } from '../contract/index.ts';
import type { RunOptions, Scenario } from '../harness/index.ts';
import { localTools } from '../harness/index.ts';
import { matches } from '../pipeline/hooks/index.ts';
import type { Io } from './io.ts';

/** Flags shared by demo and run. */
export interface RunFlags {
  readonly help: boolean;
  readonly transport: 'mcp' | 'local';
  readonly scenario: string;
  readonly json: boolean;
  readonly yes: boolean;
  readonly trustProject: boolean;
  readonly allowTools: readonly string[];
  readonly denyTools: readonly string[];
  readonly skillDirs: readonly string[];
  readonly noSkill: boolean;
  readonly out?: string;
  readonly runId?: string;
  readonly settings?: string;
}

export interface RunSetup {
  readonly run: Pick<RunOptions, 'tools' | 'hooks' | 'matches' | 'permission' | 'convert'> & Partial<Pick<RunOptions, 'method'>>;
  readonly notices: readonly string[];
  readonly serverLine?: () => string | undefined;
}

/** Builds a run's tools, hooks, permissions, conversion and method from flags. */
export async function setupRun(flags: RunFlags, _scenario: Scenario, _io: Io): Promise<Outcome<RunSetup>> {
  return ok({
    run: {
      tools: localTools,
      hooks: [],
      matches,
      permission: (tool) =>
        flags.denyTools.includes(tool.binding.tool)
          ? { decision: 'deny', by: 'flag', rule: `--deny-tool=${tool.binding.tool}`, reason: 'denied by flag' }
          : { decision: 'allow', by: 'default', reason: 'interim' },
      convert: (_binding, args) => ok({ converted: args, filled: [] }),
    },
    notices: [],
  });
}
