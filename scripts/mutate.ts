/**
 * The standing mutation check: applies each entry of scripts/mutations.ts to
 * a scratch copy of the repo, type-checks the mutant (one that breaks `tsc`
 * proves nothing and is reported `invalid`), runs the entry's tests (or the
 * whole suite) and prints caught / survived per entry with the first failing
 * test. Exits 1 if any entry survived, was invalid, could not be applied or
 * timed out. Slow by design; not part of `npm test`.
 *
 * The chosen tests first run once on an unmutated copy: if they are red there,
 * a "caught" would mean nothing, so the run stops.
 *
 * Usage: bun scripts/mutate.ts [--only SUBSTRING] [--suite]
 *   --only   run the entries whose id, claim or file contains SUBSTRING
 *   --suite  run the whole suite for every entry, ignoring its `tests`
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLAIMS, MUTATIONS, type Claim, type Mutation } from './mutations.ts';

const root = join(import.meta.dir, '..');
const SKIP = new Set(['node_modules', '.git', 'dist', 'caplab-runs', '.tmp']);
/** A mutant that hangs the suite is reported, not waited on forever. */
const TEST_TIMEOUT_MS = 15 * 60_000;

type Result = 'caught' | 'survived' | 'invalid' | 'unapplied' | 'timeout';

interface Row {
  readonly id: string;
  readonly claim: string;
  readonly result: Result;
  readonly detail: string;
  readonly seconds: number;
}

/** Counts non-overlapping occurrences of `find` in `text`. */
export function occurrences(text: string, find: string): number {
  return find === '' ? 0 : text.split(find).length - 1;
}

/** The first `(fail)` test name in bun's output, without its timing, and how many others failed. */
export function firstFailingTest(output: string): string | undefined {
  // bun repeats the failures in its summary; count each name once.
  const names = [...new Set(output.split('\n').filter((l) => l.startsWith('(fail) ')).map((l) => l.slice('(fail) '.length).replace(/ \[[\d.]+m?s\]$/, '')))];
  if (names.length === 0) return undefined;
  return names.length === 1 ? names[0] : `${names[0]} (+${names.length - 1} more)`;
}

/** Claims of CLAIMS with no entry in the list, and README phrases that are gone. */
export function listProblems(mutations: readonly Mutation[], readme: string): string[] {
  const problems: string[] = [];
  for (const [claim, { readme: phrase }] of Object.entries(CLAIMS)) {
    if (!mutations.some((m) => m.claim === claim)) problems.push(`claim ${claim} has no entry`);
    if (!readme.includes(phrase)) problems.push(`README no longer says ${JSON.stringify(phrase)} (claim ${claim})`);
  }
  const ids = mutations.map((m) => m.id);
  for (const id of ids.filter((id, i) => ids.indexOf(id) !== i)) problems.push(`duplicate entry id ${id}`);
  return problems;
}

/** Copies the repo (sources only) into a fresh scratch dir, with node_modules linked, not copied. */
function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'caplab-mutate-'));
  const repo = join(dir, 'repo');
  cpSync(root, repo, { recursive: true, filter: (src) => !SKIP.has(src.slice(root.length + 1).split('/')[0]!) });
  symlinkSync(join(root, 'node_modules'), join(repo, 'node_modules'));
  // The list's own test checks that every entry's text is in place; in a mutant it is not, so that
  // test would "catch" every mutant with no product test involved.
  rmSync(join(repo, 'scripts/mutate.test.ts'), { force: true });
  mkdirSync(join(dir, 'tmp'));
  return dir;
}

async function run(argv: readonly string[], cwd: string, tmp: string, timeout?: number): Promise<{ code: number | null; output: string; timedOut: boolean }> {
  // Tests write their temp dirs under the scratch dir, so removing it removes them.
  const env = { ...process.env, TMPDIR: tmp };
  const child = Bun.spawn([...argv], { cwd, env, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore', ...(timeout ? { timeout } : {}) });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, output: `${out}${err}`, timedOut: child.signalCode !== null && code !== 0 };
}

const bun = process.execPath;
const tsc = join(root, 'node_modules/.bin/tsc');
// The same per-test timeout as `npm test`: a slow test on a loaded machine is not a caught mutant.
const testArgs = (tests?: readonly string[]) => [bun, 'test', '--timeout', '60000', ...(tests ?? []).map((t) => `./${t}`)];

/** Runs the chosen tests on an unmutated copy; returns the output if they are not green. */
async function baseline(tests: readonly string[] | undefined): Promise<string | undefined> {
  const dir = scratchCopy();
  try {
    const result = await run(testArgs(tests), join(dir, 'repo'), join(dir, 'tmp'), TEST_TIMEOUT_MS);
    return result.code === 0 ? undefined : result.output;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function mutate(mutation: Mutation): Promise<Row> {
  const started = performance.now();
  const row = (result: Result, detail: string): Row => ({ id: mutation.id, claim: mutation.claim, result, detail, seconds: (performance.now() - started) / 1000 });
  const dir = scratchCopy();
  try {
    const repo = join(dir, 'repo');
    const path = join(repo, mutation.file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return row('unapplied', `${mutation.file} does not exist`);
    }
    const count = occurrences(text, mutation.find);
    if (count !== 1) return row('unapplied', `the exact text occurs ${count} times in ${mutation.file} (must be once)`);
    writeFileSync(path, text.replace(mutation.find, () => mutation.replace));

    const typed = await run([tsc, '--noEmit', '-p', '.'], repo, join(dir, 'tmp'));
    if (typed.code !== 0) return row('invalid', typed.output.split('\n').find((l) => l.includes('error TS')) ?? 'tsc failed');

    const tested = await run(testArgs(mutation.tests), repo, join(dir, 'tmp'), TEST_TIMEOUT_MS);
    if (tested.timedOut) return row('timeout', `tests did not finish in ${TEST_TIMEOUT_MS / 60_000} min`);
    if (tested.code === 0) return row('survived', '');
    const name = firstFailingTest(tested.output);
    return row('caught', name ?? `(no failing test named) ${tested.output.split('\n').find((l) => /error/i.test(l)) ?? ''}`.trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function table(rows: readonly Row[]): string {
  const head = ['entry', 'claim', 'result', 'time', 'failing test / reason'];
  const body = rows.map((r) => [r.id, r.claim, r.result, `${r.seconds.toFixed(1)}s`, r.detail]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { only: { type: 'string' }, suite: { type: 'boolean' } } });
  const only = values.only;
  const problems = listProblems(MUTATIONS, readFileSync(join(root, 'README.md'), 'utf8'));
  for (const problem of problems) process.stderr.write(`mutations list: ${problem}\n`);
  const chosen = MUTATIONS.filter((m) => only === undefined || m.id.includes(only) || m.claim.includes(only) || m.file.includes(only)).map((m): Mutation => {
    if (!values.suite) return m;
    const { tests: _tests, ...rest } = m;
    return rest;
  });
  if (chosen.length === 0) {
    process.stderr.write(`no entry matches --only ${JSON.stringify(only)}\n`);
    process.exit(2);
  }
  const started = performance.now();
  const whole = chosen.some((m) => !m.tests);
  const union = whole ? undefined : [...new Set(chosen.flatMap((m) => m.tests!))].sort();
  process.stderr.write(`baseline: ${union ? union.join(' ') : 'the whole suite'} on an unmutated copy…\n`);
  const red = await baseline(union);
  if (red !== undefined) {
    process.stderr.write(`${red}\nbaseline is red: fix the suite before reading mutants\n`);
    process.exit(1);
  }
  const rows: Row[] = [];
  for (const mutation of chosen) {
    process.stderr.write(`${mutation.id} (${mutation.claim}: ${CLAIMS[mutation.claim as Claim].text})…\n`);
    const row = await mutate(mutation);
    process.stderr.write(`  ${row.result} ${row.detail}\n`);
    rows.push(row);
  }
  const counts = Object.groupBy(rows, (r) => r.result);
  process.stdout.write(`${table(rows)}\n\n`);
  process.stdout.write(
    `${rows.length} entries: ${(['caught', 'survived', 'invalid', 'unapplied', 'timeout'] as const).map((r) => `${counts[r]?.length ?? 0} ${r}`).join(', ')}; ${((performance.now() - started) / 1000).toFixed(0)}s total\n`,
  );
  const bad = rows.some((r) => r.result !== 'caught') || (only === undefined && problems.length > 0);
  process.exit(bad ? 1 : 0);
}
