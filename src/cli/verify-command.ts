import { lstatSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LIMITS } from '../contract/index.ts';
import { verifyRun, type RecheckReport, type RunVerification, type TaskRecheck } from '../harness/index.ts';
import { renderVerifyText } from '../ledger/index.ts';
import { repeatedFlag } from './flags.ts';
import { HELP } from './help.ts';
import { EXIT } from './exit.ts';
import type { Io } from './io.ts';
import { recordTaskId, UNNAMED_TASK } from './tasks.ts';

const VERIFY_OPTIONS = { json: { type: 'boolean' }, head: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

/**
 * `caplab verify RUN_DIR [--json] [--head HASH]`: re-checks a run dir offline,
 * acceptance with the recheck of the task its run_start names (`tasks`, the
 * registry's; a record naming none is the excerpt's, one naming a task not
 * there is `evidence/unknown_task`). `rechecks` loads the rechecks of the
 * task ids asked for: only the one the record names is loaded.
 */
export async function verifyCommand(args: readonly string[], io: Io, rechecks: (ids: readonly string[]) => Promise<ReadonlyMap<string, TaskRecheck>>): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: VERIFY_OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr(`caplab verify: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  const repeated = repeatedFlag(args, VERIFY_OPTIONS);
  if (repeated) {
    io.stderr(`caplab verify: ${repeated}\n`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    io.stdout(`${HELP['verify']}\n`);
    return EXIT.ok;
  }
  if (parsed.positionals.length !== 1) {
    io.stderr('caplab verify: needs exactly one RUN_DIR\n');
    return EXIT.usage;
  }
  if (parsed.positionals[0] === '') {
    io.stderr('caplab verify: RUN_DIR needs a path; an empty one would mean the working directory\n');
    return EXIT.usage;
  }
  const dir = resolve(io.cwd, parsed.positionals[0]!);
  const head = parsed.values.head;
  if (head !== undefined && !/^[0-9a-f]{64}$/.test(head)) {
    io.stderr('caplab verify: --head takes the 64 lowercase hex digits of a ledger head\n');
    return EXIT.usage;
  }
  const report = await verifyDir(dir, rechecks, head);
  if (parsed.values.json) {
    io.stdout(`${JSON.stringify(report.ok ? { verified: true, ...report.value } : { verified: false, error: { class: report.class, kind: report.kind, message: report.message, at: report.at, ...(report.issues ? { issues: report.issues } : {}) } }, null, 2)}\n`);
  } else {
    io.stdout(renderVerifyText(report));
    const recheck = report.ok ? report.value.recheck : undefined;
    if (recheck && report.ok) io.stdout(`  verdict ${verdictOf(recheck, report.value.end.ending)}\n`);
  }
  return report.ok ? EXIT.ok : EXIT.failed;
}

/** Verifies a run dir as `caplab verify` does (and `caplab report` before it draws): the recheck of the task its run_start names, loaded alone. */
export async function verifyDir(dir: string, rechecks: (ids: readonly string[]) => Promise<ReadonlyMap<string, TaskRecheck>>, head?: string): Promise<RunVerification> {
  const tasks = await rechecks([recordTaskId(() => firstLine(join(dir, 'ledger.jsonl')))]);
  return verifyRun(dir, [...tasks.values()], { unnamed: UNNAMED_TASK, ...(head !== undefined ? { expectedHead: head } : {}) });
}

/** The ledger's first line, when it is a regular file verify would read (a FIFO is never opened); undefined otherwise. */
function firstLine(path: string): string | undefined {
  try {
    const stat = lstatSync(path);
    if (!stat.isFile() || stat.size > LIMITS.recordFileBytes) return undefined;
    const text = readFileSync(path, 'utf8');
    const end = text.indexOf('\n');
    return end === -1 ? undefined : text.slice(0, end);
  } catch {
    return undefined;
  }
}

/** The verdict line: the re-computed acceptance, unless the run ended otherwise after it (then the run is not accepted). */
function verdictOf(recheck: RecheckReport, ending: string): string {
  if (!recheck.decided) return 'none: the run ended before acceptance';
  const decided = `${recheck.accepted ? 'accepted' : 'not accepted'} (re-computed)`;
  return ending === 'completed' ? decided : `none: the run ended ${ending} after its acceptance was decided, ${decided}`;
}
