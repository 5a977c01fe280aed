import * as nodeFs from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fail, type Failure } from '../contract/index.ts';
import { parseArgs } from 'node:util';
import type { Task, ToolProvider } from '../harness/index.ts';
import { caseFlags, checkCases, judge, type CheckResult } from './check.ts';
import { HELP } from './help.ts';
import { EXIT, paint, type Io } from './io.ts';
import { repeatedFlag } from './flags.ts';
import { junitXml } from './junit.ts';
import { checkOutDir, checkReportFile, checkRunId, usageFailure } from './paths.ts';
import { execute, newRunId } from './run-command.ts';

const CHECK_OPTIONS = {
  json: { type: 'boolean' },
  junit: { type: 'string' },
  out: { type: 'string' },
  'run-id': { type: 'string' },
  durable: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `caplab check [--json] [--junit FILE] [--out DIR]`: the CI smoke test. */
export async function checkCommand(args: readonly string[], io: Io, task: Task, mcpTools: ToolProvider): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: CHECK_OPTIONS, strict: true, allowPositionals: false });
  } catch (error) {
    return usage(io, (error as Error).message);
  }
  const repeated = repeatedFlag(args, CHECK_OPTIONS);
  if (repeated) return usage(io, repeated);
  const v = parsed.values;
  if (v.help) return io.stdout(`${HELP['check']}\n`), EXIT.ok;
  const checkId = v['run-id'] ?? newRunId().replace(/^run-/, 'check-');
  if (v.out === '') return usage(io, '--out needs a folder; an empty path would mean the working directory');
  const root = resolve(io.cwd, v.out ?? join('caplab-runs', checkId));
  const junit = v.junit !== undefined ? resolve(io.cwd, v.junit) : undefined;
  // Every path is checked before the first scenario runs: a typo must not cost a whole check.
  const bad =
    checkRunId(checkId) ??
    checkOutDir(root, v.out !== undefined ? '--out' : 'check dir') ??
    (v.junit === '' ? usageFailure('bad_path', '--junit needs a file name') : junit !== undefined ? checkReportFile(junit, '--junit') : undefined);
  if (bad) return usage(io, bad.message);
  const colours = paint(io);
  const results: CheckResult[] = [];
  const cases = checkCases(task);
  if (!v.json) io.stdout(`caplab check — ${cases.length} scenarios, run dirs under ${root}\n\n`);
  const width = Math.max(...cases.map((c) => c.id.length));
  for (const item of cases) {
    const flags = { ...caseFlags(task, item, root, `${checkId}-${item.id}`), ...(v.durable ? { durable: true } : {}) };
    const result = judge(task, item, await execute(flags, item.scenario, io, task, mcpTools));
    results.push(result);
    if (!v.json) {
      const mark = result.passed ? colours.ok('✓') : colours.bad('✗');
      io.stdout(`${mark} ${item.id.padEnd(width)}  expected: ${result.expected}\n  ${' '.repeat(width)}  observed: ${result.observed}\n`);
    }
  }
  const passed = results.filter((r) => r.passed).length;
  if (junit !== undefined) {
    const written = writeReport(junit, junitXml(results));
    if (written) {
      // The path was fine before the run; failing now is I/O (disk full, the folder removed), not usage.
      io.stderr(`caplab check: could not write ${junit}: ${written.message}\n`);
      return EXIT.protocol;
    }
  }
  const allPassed = passed === results.length;
  if (v.json) io.stdout(`${JSON.stringify({ passed: allPassed, scenarios: results.length, expected: passed, unexpected: results.length - passed, results, scripted: true }, null, 2)}\n`);
  else io.stdout(`\n${allPassed ? colours.ok('all scenarios ended as expected') : colours.bad(`${results.length - passed} scenario(s) did not end as expected`)} (${passed}/${results.length})\n`);
  return allPassed ? EXIT.ok : EXIT.failed;
}

function usage(io: Io, message: string): number {
  io.stderr(`caplab check: ${message}\nSee \`caplab check --help\`.\n`);
  return EXIT.usage;
}

/**
 * Writes a report file whole or not at all: a temp file beside it, then
 * rename(2). The temp never survives, whichever step fails.
 */
export function writeReport(target: string, text: string, fs: Pick<typeof nodeFs, 'writeFileSync' | 'renameSync' | 'unlinkSync'> = nodeFs): Failure | undefined {
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  let created = false;
  try {
    fs.writeFileSync(temp, text, { flag: 'wx' });
    created = true;
    fs.renameSync(temp, target);
    return undefined;
  } catch (error) {
    // 'wx' may have created the file before a failed write; an EEXIST temp is someone else's.
    if (created || errorCode(error) !== 'EEXIST') {
      try {
        fs.unlinkSync(temp);
      } catch {
        // Never created, or already renamed.
      }
    }
    return fail('business', 'write_failed', String(error));
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
