import { mcpProvider, type McpProviderOptions, type TaskRun, type ToolProvider } from '../harness/index.ts';
import { fixtureLaunch } from '../mcp/index.ts';
import { FIXTURE_SERVER_INFO } from './fixture-info.ts';
import { mcpReadSource, READ_SOURCE_EXPECTED } from './mcp-read-source.ts';
import { excerptRun } from './run-state.ts';

/** How the excerpt's fixture server is started: the environment it is launched from, or a launch given outright (tests, the golden runs). */
export type FixtureToolsOptions = { readonly envSource: Readonly<Record<string, string | undefined>> } & Partial<Omit<McpProviderOptions, 'server' | 'expected' | 'adapt' | 'instance' | 'reproducible'>>;

/**
 * read_source served by the task's fixture MCP server (this program's
 * `serve`, spawned with a cleaned environment), every result checked against
 * the run's own snapshot. The instance id derives from the run id so that
 * same-id runs bind identically; with SOURCE_DATE_EPOCH set in `envSource`
 * the run is meant to be reproducible, so process ids are kept out of the
 * close record (the server's stderr, surviving members).
 */
export function fixtureProvider(options: FixtureToolsOptions): ToolProvider {
  const { envSource, launch, ...session } = options;
  return mcpProvider({
    ...session,
    launch: launch ?? fixtureLaunch({ envSource }),
    server: FIXTURE_SERVER_INFO.name,
    expected: [READ_SOURCE_EXPECTED],
    adapt: (client, run: TaskRun) => [mcpReadSource(client, excerptRun(run).snapshot)],
    instance: 'fixture-1',
    reproducible: (envSource['SOURCE_DATE_EPOCH'] ?? '') !== '',
  });
}
