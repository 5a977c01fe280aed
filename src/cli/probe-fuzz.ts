/**
 * probe's fuzzing flags and what they print: `--fuzz N --fuzz-tool NAME…
 * [--seed S]` (N sets for each named tool, sent for real; seed 1 by
 * default, always printed) and `--fuzz-replay FILE` (each fuzz finding of a
 * `--json` report re-sent once). The sending is src/mcp/probe/fuzz/'s.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { inert, clipChars } from '../base/index.ts';
import { fail, LIMITS, ok, parseJsonBounded, readBoundedText, type Failure, type Outcome } from '../contract/index.ts';
import { FUZZ_ENDED_KIND, FUZZ_UNKNOWN_KINDS, levelOf, reachesFailOn, type FuzzSection, type Level, type LevelOverrides, type ProbeFinding, type ReplayItem, type ReplayResult } from '../mcp/index.ts';
import { EXIT } from './exit.ts';

/** The fuzzing flags as given. */
export interface FuzzFlags {
  readonly count?: number;
  readonly tools: readonly string[];
  readonly seed: number;
  readonly replay?: string;
}

/** Flags of probe's that take a value, and those given once only. */
export const FUZZ_VALUE_FLAGS: readonly string[] = ['--fuzz', '--fuzz-tool', '--seed', '--fuzz-replay'];
export const FUZZ_SINGLE_FLAGS: readonly string[] = ['--fuzz', '--seed', '--fuzz-replay'];

/** The flags so far, being read. */
export interface FuzzReading {
  count?: number;
  tools: string[];
  seed?: number;
  replay?: string;
}

/** Reads `--fuzz N`: a whole number of sets, 1 to fuzzSetsPerTool. */
function readCount(value: string): number | string {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1 || n > LIMITS.fuzzSetsPerTool) return `--fuzz needs a whole number of sets from 1 to ${LIMITS.fuzzSetsPerTool} (fuzzSetsPerTool; got ${JSON.stringify(value)})`;
  return n;
}

/** Reads `--seed S`: a whole number from 0 to 2^32 − 1 (the generator's state). */
function readSeed(value: string): number | string {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n > 0xffff_ffff) return `--seed needs a whole number from 0 to 4294967295 (got ${JSON.stringify(value)})`;
  return n;
}

/** One fuzzing flag and its value into `into`; a string is a usage error; false: not a fuzzing flag. */
export function readFuzzFlag(name: string, value: string | undefined, into: FuzzReading): string | boolean {
  if (!FUZZ_VALUE_FLAGS.includes(name) || value === undefined) return false;
  if (name === '--fuzz-tool') return into.tools.push(value), true;
  if (name === '--fuzz-replay') return (into.replay = value), true;
  const read = name === '--fuzz' ? readCount(value) : readSeed(value);
  if (typeof read === 'string') return read;
  if (name === '--fuzz') into.count = read;
  else into.seed = read;
  return true;
}

/** The fuzzing flags together, or why they do not go together (a usage error). */
export function fuzzFlags(reading: FuzzReading, all: boolean): FuzzFlags | undefined | string {
  const { count, tools, seed, replay } = reading;
  if (count === undefined && tools.length === 0 && seed === undefined && replay === undefined) return undefined;
  if (replay !== undefined && (count !== undefined || tools.length > 0 || seed !== undefined)) return '--fuzz-replay re-sends a report\'s findings: not with --fuzz, --fuzz-tool or --seed';
  if (replay === undefined && count === undefined) return '--fuzz-tool and --seed go with --fuzz N';
  if (replay === undefined && tools.length === 0) return '--fuzz N needs --fuzz-tool NAME (each tool fuzzed is named)';
  if (all) return '--fuzz and --fuzz-replay take one server: not with --all';
  return { ...(count !== undefined ? { count } : {}), tools: [...new Set(tools)], seed: seed ?? 1, ...(replay !== undefined ? { replay } : {}) };
}

const malformed = (path: string, why: string): Failure => fail('invalid_arguments', 'malformed_replay', `--fuzz-replay ${path}: ${why}`);
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The fuzz findings of a `--json` report (one server's, or `--all`'s):
 * read whole within fuzzReplayBytes, and nested no deeper than a report
 * holding sets `argumentsDepth` + 1 deep; every finding with a set must name
 * its tool, kind, seed, index and arguments.
 */
export function readReplay(file: string, cwd: string): Outcome<ReplayItem[]> {
  const path = resolve(cwd, file);
  try {
    if (statSync(path).size > LIMITS.fuzzReplayBytes) return malformed(file, `larger than ${LIMITS.fuzzReplayBytes} bytes (fuzzReplayBytes)`);
  } catch {
    return malformed(file, 'cannot be read (missing?)');
  }
  const read = readBoundedText(path, LIMITS.fuzzReplayBytes);
  if (!read.ok) return malformed(file, read.message);
  const parsed = parseJsonBounded(read.value, { maxDepth: LIMITS.argumentsDepth + 1 + 8 });
  if (!parsed.ok) return malformed(file, `${parsed.kind}: ${parsed.message}`);
  const doc = parsed.value;
  const reports = isObject(doc) && Array.isArray(doc['servers']) ? doc['servers'] : [doc];
  const items: ReplayItem[] = [];
  for (const report of reports) {
    const fuzz = isObject(report) ? report['fuzz'] : undefined;
    if (!isObject(fuzz)) continue;
    if (!Array.isArray(fuzz['findings'])) return malformed(file, 'fuzz.findings is not a list');
    for (const found of fuzz['findings']) {
      if (!isObject(found) || !('index' in found)) continue;
      const { tool, kind, seed, index, arguments: args } = found;
      // A set need not be an object (a wrong type at the top is one of the shapes): any JSON value is re-sent as it is.
      if (typeof tool !== 'string' || typeof kind !== 'string' || !Number.isSafeInteger(seed) || !Number.isSafeInteger(index) || !('arguments' in found)) return malformed(file, 'a fuzz finding without its tool, kind, seed, index or arguments (a clipped tool name cannot be re-sent)');
      items.push({ tool, kind, seed: seed as number, index: index as number, arguments: args });
    }
  }
  return ok(items);
}

/** The section with a level on each finding. */
export function leveledFuzz(section: FuzzSection, overrides: LevelOverrides): FuzzSection {
  return { ...section, findings: section.findings.map((f) => ({ ...f, level: levelOf(f, overrides) })) };
}

/** Fuzzing's exit: a set left pending 4; a session ended otherwise (or not restarted) 3; a finding at `--fail-on` 1. */
export function fuzzExit(findings: readonly ProbeFinding[], failOn: Level): number {
  if (findings.some((f) => FUZZ_UNKNOWN_KINDS.has(f.kind))) return EXIT.unknown;
  if (findings.some((f) => f.kind === FUZZ_ENDED_KIND || (!('index' in f) && f.kind !== 'tools_changed'))) return EXIT.protocol;
  return reachesFailOn(findings, failOn) ? EXIT.failed : EXIT.ok;
}

/** Replay's exit: what the reproduced findings would exit with. */
export function replayExit(results: readonly ReplayResult[]): number {
  const found = results.flatMap((r) => r.found.map((kind) => ({ kind, index: r.index })));
  if (found.some((f) => FUZZ_UNKNOWN_KINDS.has(f.kind))) return EXIT.unknown;
  if (found.some((f) => f.kind === FUZZ_ENDED_KIND)) return EXIT.protocol;
  return results.some((r) => r.reproduced) ? EXIT.failed : EXIT.ok;
}

const shownArgs = (args: unknown): string => inert(clipChars(JSON.stringify(args), 120));

/** The fuzz lines of the text report: the seed, a line per tool, a line per finding. */
export function fuzzText(section: FuzzSection): string {
  const levels = ['error', 'warning', 'note'].map((level) => `${section.findings.filter((f) => (f.level ?? 'error') === level).length} ${level}`).join(', ');
  const lines = [`  fuzz      seed ${section.seed}, ${section.count} set(s) per tool, ${section.restarts} restart(s), ${section.findings.length} finding(s) (${levels})`];
  for (const tool of section.tools) lines.push(`  fuzz      ${inert(tool.name)}: ${tool.sent} of ${tool.drawn} sent (${tool.valid} valid, ${tool.invalid} invalid)${tool.stopped ? `; ${inert(tool.stopped)}` : ''}`);
  for (const f of section.findings) {
    const where = 'index' in f ? ` #${f.index as number} ${shownArgs(f.arguments)}` : '';
    lines.push(`  fuzz      ${f.level ?? 'error'} ${f.class}/${f.kind} ${inert(typeof f.tool === 'string' ? f.tool : '-')}${where}: ${inert(f.evidence)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The replay lines: one per finding re-sent. */
export function replayText(results: readonly ReplayResult[]): string {
  if (results.length === 0) return '  replay    no fuzz finding in the report\n';
  return results.map((r) => `  replay    ${inert(r.tool)} #${r.index} (seed ${r.seed}) ${r.kind}: ${r.reproduced ? 'reproduced' : `not reproduced (now: ${r.found.join(', ') || 'nothing'})`}\n`).join('');
}
