import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { TaskRecheck } from '../harness/index.ts';
import { readFound, renderReport } from '../report/index.ts';
import { EXIT } from './exit.ts';
import { repeatedFlag } from './flags.ts';
import { HELP } from './help.ts';
import type { Io } from './io.ts';
import { lstatOrUndefined } from './paths.ts';
import { checkReportFile, reportTarget, writeReport } from './report-file.ts';
import { verifyDir } from './verify-command.ts';

const REPORT_OPTIONS = { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

/** Why RUN_DIR cannot be drawn (exit 2), or undefined: a real folder, not a symlink to one (verify follows none). */
function notAFolder(dir: string): string | undefined {
  const stats = lstatOrUndefined(dir);
  if (!stats) return `${dir} does not exist`;
  if (stats.isSymbolicLink()) return `${dir} is a symlink; report follows none, as verify does`;
  return stats.isDirectory() ? undefined : `${dir} is not a folder`;
}

/** The page's file: `--out`, else `./<basename of RUN_DIR>.report.html` in the working directory (never a name from the record). */
function outPath(io: Io, dir: string, out: string | undefined): string {
  return out !== undefined ? resolve(io.cwd, out) : join(io.cwd, `${basename(dir) || 'run'}.report.html`);
}

/**
 * `caplab report RUN_DIR [--out FILE]`: verifies the run dir as `verify`
 * does, then writes one self-contained, script-free HTML page of it, the
 * verdict first (src/report). Exit 0 the record verifies, 1 it does not
 * (the page is written either way), 2 RUN_DIR is not a folder or the output
 * file is bad (nothing written), 3 the page could not be written.
 */
export async function reportCommand(args: readonly string[], io: Io, rechecks: (ids: readonly string[]) => Promise<ReadonlyMap<string, TaskRecheck>>): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: REPORT_OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return usage(io, (error as Error).message);
  }
  const repeated = repeatedFlag(args, REPORT_OPTIONS);
  if (repeated) return usage(io, repeated);
  if (parsed.values.help) {
    io.stdout(`${HELP['report']}\n`);
    return EXIT.ok;
  }
  if (parsed.positionals.length !== 1) return usage(io, 'needs exactly one RUN_DIR');
  if (parsed.positionals[0] === '') return usage(io, 'RUN_DIR needs a path; an empty one would mean the working directory');
  if (parsed.values.out === '') return usage(io, '--out needs a file name');
  const dir = resolve(io.cwd, parsed.positionals[0]!);
  const missing = notAFolder(dir);
  if (missing) return usage(io, `RUN_DIR ${missing}: there is nothing to draw (verify says "does not verify", exit 1)`);
  const out = outPath(io, dir, parsed.values.out);
  const bad = checkReportFile(out, parsed.values.out !== undefined ? '--out' : 'report file', dir);
  if (bad) return usage(io, bad.message);
  const verdict = await verifyDir(dir, rechecks);
  const page = renderReport({ dir, verdict, run: readFound(dir) });
  const written = writeReport(reportTarget(out), page);
  if (written) {
    io.stderr(`caplab report: ${written.class}/${written.kind}: ${written.message}\n`);
    return EXIT.io;
  }
  const said = verdict.ok ? 'verifies' : `does not verify: ${verdict.class}/${verdict.kind}`;
  io.stdout(`report: ${out} (${Buffer.byteLength(page)} bytes); the record ${said}\n`);
  return verdict.ok ? EXIT.ok : EXIT.failed;
}

function usage(io: Io, message: string): number {
  io.stderr(`caplab report: ${message}\nSee \`caplab report --help\`.\n`);
  return EXIT.usage;
}

