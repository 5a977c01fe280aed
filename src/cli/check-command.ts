import { inert } from '../base/index.ts';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ok, type Outcome } from '../contract/index.ts';
import { caseFlags, checkCases, judge, type CheckResult } from './check.ts';
import type { RunnableCase } from './check-scenarios.ts';
import { HELP } from './help.ts';
import { EXIT } from './exit.ts';
import { paint, type Io, type Paint } from './io.ts';
import { SERVER_OPTIONS, serverFlags, type ServerFlags } from './server-flags.ts';
import type { CliTask } from './tasks.ts';
import { repeatedFlag } from './flags.ts';
import { junitXml } from './junit.ts';
import { checkOutDir, checkRunId, usageFailure } from './paths.ts';
import { failureText } from './render.ts';
import { checkReportFile, reportTarget, writeReport } from './report-file.ts';
import { newRunId } from '../harness/index.ts';
import { badFlag, execute, preflight, prepareRun, scripted, startRun } from './run-command.ts';

const CHECK_OPTIONS = {
  json: { type: 'boolean' },
  junit: { type: 'string' },
  out: { type: 'string' },
  'run-id': { type: 'string' },
  durable: { type: 'boolean' },
  scenarios: { type: 'string' },
  'defer-tool': { type: 'string', multiple: true },
  ...SERVER_OPTIONS,
  help: { type: 'boolean', short: 'h' },
} as const;

/** check's flags, every path checked. */
interface CheckFlags {
  readonly json: boolean;
  readonly durable: boolean;
  readonly checkId: string;
  /** Where the run dirs go: `--out`, or ./caplab-runs/<check-id>. */
  readonly root: string;
  /** `--junit` as given (for messages), and the `reportTarget` it resolved to when it was checked. */
  readonly junit?: { readonly path: string; readonly target: string };
  /** `--mcp-config` and its companions: one `server-<key>` case per configured server (with `--scenarios`: the servers its scenarios name). */
  readonly servers: ServerFlags;
  /** `--scenarios DIR` as given: its `*.scenario.json` files run instead of the built-in and per-server cases. */
  readonly scenarios?: string;
  /** `--defer-tool=NAME` (with `--scenarios` only): deferred in every scenario's run, before the scenario's own `defer`. */
  readonly deferTools: readonly string[];
}

/** Parses check's flags and checks every path, before the first scenario runs: a typo must not cost a whole check. */
function parseCheckFlags(args: readonly string[], cwd: string): Outcome<CheckFlags | { readonly help: true }> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: CHECK_OPTIONS, strict: true, allowPositionals: false });
  } catch (error) {
    return badFlag((error as Error).message);
  }
  const repeated = repeatedFlag(args, CHECK_OPTIONS);
  if (repeated) return badFlag(repeated);
  const v = parsed.values;
  if (v.help) return ok({ help: true });
  const checkId = v['run-id'] ?? newRunId().replace(/^run-/, 'check-');
  if (v.out === '') return badFlag('--out needs a folder; an empty path would mean the working directory');
  const root = resolve(cwd, v.out ?? join('caplab-runs', checkId));
  const junit = v.junit !== undefined ? resolve(cwd, v.junit) : undefined;
  const bad =
    checkRunId(checkId) ??
    checkOutDir(root, v.out !== undefined ? '--out' : 'check dir') ??
    (v.junit === '' ? usageFailure('bad_path', '--junit needs a file name') : junit !== undefined ? checkReportFile(junit, '--junit', root) : undefined);
  if (bad) return bad;
  const servers = serverFlags(v);
  if (!servers.ok) return servers;
  if (v.scenarios === '') return badFlag('--scenarios needs a folder');
  if (v.scenarios !== undefined && servers.value.requireServers.length > 0) return badFlag('--require-server does not apply to --scenarios: each scenario names its servers, and each is required');
  if (v.scenarios === undefined && v['defer-tool'] !== undefined) return badFlag('--defer-tool applies to --scenarios: the built-in cases defer what their own scenarios name, and expect the endings that gives');
  return ok({
    json: v.json ?? false,
    durable: v.durable ?? false,
    checkId,
    root,
    servers: servers.value,
    deferTools: v['defer-tool'] ?? [],
    ...(junit !== undefined ? { junit: { path: junit, target: reportTarget(junit) } } : {}),
    ...(v.scenarios !== undefined ? { scenarios: v.scenarios } : {}),
  });
}

/** `caplab check [--json] [--junit FILE] [--out DIR] [--scenarios DIR]`: the CI smoke test. */
export async function checkCommand(args: readonly string[], io: Io, task: CliTask): Promise<number> {
  const parsed = parseCheckFlags(args, io.cwd);
  if (!parsed.ok) return usage(io, parsed.message);
  if ('help' in parsed.value) return io.stdout(`${HELP['check']}\n`), EXIT.ok;
  const flags = parsed.value;
  if (flags.scenarios !== undefined) {
    // Loaded only here: the built-in check evaluates nothing of the scenario files' path.
    const { scenarioCases } = await import('./check-scenarios.ts');
    const cases = await scenarioCases({ dir: flags.scenarios, servers: flags.servers, root: flags.root, checkId: flags.checkId, durable: flags.durable, deferTools: flags.deferTools }, io, task);
    if (!cases.ok) return usage(io, failureText(cases));
    // What needs the servers' listings (rule names, output_valid's outputSchema) is checked for every file before the first case too.
    for (const item of cases.value) {
      const refusal = await preflight(item.flags, item.answers, io, task);
      if (refusal) return usage(io, `${item.file ?? item.id}: ${failureText(refusal)}`);
    }
    return runCases(flags, cases.value, [], `${cases.value.length} scenario(s) from ${flags.scenarios}`, io, task);
  }
  const configured = flags.servers.mcpConfig === undefined ? undefined : await (await import('./check-servers.ts')).serverCases({ ...flags.servers, mcpConfig: flags.servers.mcpConfig }, io, flags.checkId);
  if (configured && 'usage' in configured) return usage(io, failureText(configured.usage));
  if (configured && 'required' in configured) return io.stderr(`caplab check: ${failureText(configured.required)}\n`), EXIT.protocol;
  for (const notice of configured?.notices ?? []) io.stderr(`caplab: ${inert(notice)}\n`);
  const cases = checkCases(task).map((item): RunnableCase => ({
    id: item.id,
    flags: { ...caseFlags(task, item, flags.root, `${flags.checkId}-${item.id}`), ...(flags.durable ? { durable: true } : {}) },
    answers: scripted(item.scenario),
    judge: (executed) => judge(task, item, executed),
  }));
  const servers = configured?.results ?? [];
  return runCases(flags, cases, servers, `${cases.length} scenarios${servers.length > 0 ? ` and ${servers.length} configured server(s)` : ''}`, io, task);
}

/** Runs the cases in order, each judged as it ends, then the table (or JSON) and the JUnit file; `done` are cases judged before (the configured servers'). */
async function runCases(flags: CheckFlags, cases: readonly RunnableCase[], done: readonly CheckResult[], what: string, io: Io, task: CliTask): Promise<number> {
  // The root is taken with the first run dir, before any output: of checks racing for one --out, one runs.
  const first = await prepareRun(cases[0]!.flags, cases[0]!.answers, io, task);
  if (!first.ok && first.ending.type === 'refused') return usage(io, `${cases[0]!.file !== undefined ? `${cases[0]!.file}: ` : ''}${failureText(first.failure)}`);
  const colours = paint(io);
  const results: CheckResult[] = [...done];
  if (!flags.json) io.stdout(`caplab check — ${what}, run dirs under ${flags.root}\n\n`);
  const width = Math.max(...cases.map((c) => c.id.length), ...results.map((r) => r.id.length));
  if (!flags.json) for (const result of results) io.stdout(caseLine(result, width, colours));
  for (const [index, item] of cases.entries()) {
    const executed = index > 0 ? await execute(item.flags, item.answers, io, task) : first.ok ? await startRun(first.prepared, io) : first;
    const result = item.judge(executed);
    results.push(result);
    if (!flags.json) io.stdout(caseLine(result, width, colours));
  }
  const passed = results.filter((r) => r.passed).length;
  if (flags.junit !== undefined) {
    const written = writeReport(flags.junit.target, junitXml(results));
    if (written) {
      // The path was fine before the run; failing now is I/O (disk full, the folder removed), not usage.
      io.stderr(`caplab check: could not write ${flags.junit.path}: ${written.message}\n`);
      return EXIT.protocol;
    }
  }
  const allPassed = passed === results.length;
  if (flags.json) io.stdout(`${JSON.stringify({ passed: allPassed, scenarios: results.length, expected: passed, unexpected: results.length - passed, results, scripted: true }, null, 2)}\n`);
  else io.stdout(`\n${allPassed ? colours.ok('all scenarios ended as expected') : colours.bad(`${results.length - passed} scenario(s) did not end as expected`)} (${passed}/${results.length})\n`);
  return allPassed ? EXIT.ok : EXIT.failed;
}

/** One case as the text report shows it: its mark and id, what was expected and what was observed. */
function caseLine(result: CheckResult, width: number, colours: Paint): string {
  const mark = result.passed ? colours.ok('✓') : colours.bad('✗');
  return `${mark} ${result.id.padEnd(width)}  expected: ${result.expected}\n  ${' '.repeat(width)}  observed: ${result.observed}\n`;
}

function usage(io: Io, message: string): number {
  io.stderr(`caplab check: ${message}\nSee \`caplab check --help\`.\n`);
  return EXIT.usage;
}
