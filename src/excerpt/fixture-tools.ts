import { mcpProvider, type McpProviderOptions, type TaskRun, type ToolProvider } from '../harness/index.ts';
import type { Launch } from '../mcp/index.ts';
import { FIXTURE_KEY } from './fixture-launch.ts';
import { mcpReadSource, READ_SOURCE_EXPECTED } from './mcp-read-source.ts';
import { excerptRun } from './run-state.ts';

/**
 * How the excerpt's fixture server is started: the environment it is launched
 * from and the launch itself, which the caller hands over (the CLI's
 * `fixtureLaunch` with the program's `serve` entry; tests and the golden runs
 * their own).
 */
export type FixtureToolsOptions = { readonly envSource: Readonly<Record<string, string | undefined>>; readonly launch: Launch } & Partial<
  Omit<McpProviderOptions, 'key' | 'launch' | 'expected' | 'adapt' | 'instance' | 'reproducible'>
>;

/**
 * read_source served by the task's fixture MCP server (named `FIXTURE_KEY`:
 * its tools are `mcp__caplab-fixture__<tool>`, whatever serverInfo.name it
 * reports), every result checked against the run's own snapshot. The
 * instance id derives from the run id so that same-id runs bind identically;
 * with SOURCE_DATE_EPOCH set in `envSource` the run is meant to be
 * reproducible, so process ids are kept out of the close record (the
 * server's stderr, surviving members).
 */
export function fixtureProvider(options: FixtureToolsOptions): ToolProvider {
  const { envSource, ...session } = options;
  return mcpProvider({
    ...session,
    key: FIXTURE_KEY,
    expected: [READ_SOURCE_EXPECTED],
    adapt: (client, run: TaskRun) => [mcpReadSource(client, excerptRun(run).snapshot)],
    instance: 'fixture-1',
    reproducible: (envSource['SOURCE_DATE_EPOCH'] ?? '') !== '',
  });
}
