/**
 * Writes a small but representative run dir for the tests: snapshot sources
 * (one with CJK text), a request payload and a response, a card written by
 * "someone else" (as create_card does) and referenced from disk, and events
 * of every shape a run without tool calls has, vouching for all of them.
 * Not exported from the folder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../test/scratch.ts';
import { fixedClock, type Clock } from '../clock.ts';
import type { EventInput } from '../events.ts';
import { KNOWN_FORMATS, LEDGER_FORMAT, LEDGER_FORMAT_4, type FileRef, type RecordFormat, type Seal } from '../format.ts';
import type { RunDirFs } from '../fs.ts';
import { openRunDir } from '../run-dir.ts';

/** A fresh temp folder, removed when the test (or, at top level, the file) that asked for it ends. */
export function tempDir(prefix = 'caplab-ledger-'): string {
  return scratchDir(prefix);
}

export interface SampleRun {
  readonly dir: string;
  readonly head: string;
  readonly seal: Seal;
}

/** Unwraps an outcome in test setup, where a failure is a broken fixture. */
export function must<T>(outcome: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!outcome.ok) throw new Error(`fixture: ${outcome.message}`);
  return outcome.value;
}

/** A snapshot record, as the excerpt's run_start carries it (the ledger's own field before format 4, the task's from it). */
export interface SampleSnapshot {
  readonly id: string;
  readonly sources: readonly { readonly id: string; readonly sha256: string; readonly bytes: number }[];
}

/** A well-formed run_start of a run with no tools, vouching for `files`. */
export function sampleStart(files: readonly FileRef[] = [], snapshot: SampleSnapshot = { id: 'snap-sample', sources: [] }): EventInput<'run_start'> {
  return { caplab: '0.0.0', task: 'excerpt', run_id: 'run-1', scenario: 'happy', model: { name: 'scripted:happy', scripted: true }, transport: null, server: null, snapshot, bindings: [], hooks: [], method: null, files };
}

/**
 * The sample's run_start in `format`: before format 4 a record names no task
 * (the one shape of the sample that differs; its snapshot and disclosure are
 * the ledger's own fields before 4 and the task's from it).
 */
function startIn(format: RecordFormat, start: EventInput<'run_start'>): EventInput<'run_start'> {
  if (KNOWN_FORMATS.indexOf(format) >= KNOWN_FORMATS.indexOf(LEDGER_FORMAT_4)) return start;
  const { task: _task, ...older } = start;
  // The writer's types are the newest format's; the run dir checks the line against `format`'s schema.
  return older as EventInput<'run_start'>;
}

/** A well-formed request event for the payload file `payload`. */
export function sampleRequest(payload: { readonly path: string; readonly sha256: string; readonly bytes: number }, id = 'req-1'): EventInput<'request'> {
  return { request_id: id, index: 0, payload, tools: [], mapping_tag: '0000000000000000', method: null, disclosed_sources: [], files: [{ role: 'request_payload', ...payload }] };
}

/** A well-formed run_end of a run that failed for `cause`. */
export const failedEnd = (cause = 'test'): EventInput<'run_end'> => ({ accepted: false, exit_code: 1, ending: 'failed', cause });

/** Writes the sample run into `dir` (which must not exist or be empty), as a record of `format` (default: the one every run names). */
export function writeSampleRun(dir: string, clock: Clock = fixedClock(1_700_000_000_000), fs?: RunDirFs, format: RecordFormat = LEDGER_FORMAT): SampleRun {
  const run = must(openRunDir(dir, { clock, format, ...(fs ? { fs } : {}) }));
  const alpha = must(run.writeFile('snapshot/alpha.md', 'Alpha source.\nPlain ASCII, two lines.\n'));
  const beta = must(run.writeFile('snapshot/beta.md', 'ベータ資料：漢字と仮名。\nMixed 文字 text.\n'));
  const sources = [{ id: 'alpha', ...alpha }, { id: 'beta', ...beta }].map(({ id, sha256, bytes }) => ({ id, sha256, bytes }));
  must(run.append('run_start', startIn(format, sampleStart([{ role: 'snapshot_source', ...alpha }, { role: 'snapshot_source', ...beta }], { id: 'snap-sample', sources }))));
  const request = must(run.writeFile('requests/001-request.json', '{"messages":[{"role":"user","content":"Make a card."}]}\n'));
  must(run.append('request', sampleRequest(request)));
  const response = must(run.writeFile('requests/001-response.json', '{"scripted":true,"stop_reason":"end_turn"}\n'));
  const usage = { input_tokens: 10, output_tokens: 2, synthetic: true } as const;
  must(run.append('response', { request_id: 'req-1', scripted: true, usage, stop_reason: 'end_turn', files: [{ role: 'model_response', ...response }] }));
  // The card is written by the tool, not by the ledger; the ledger hashes it from disk.
  mkdirSync(join(run.dir, 'card'));
  writeFileSync(join(run.dir, 'card', 'excerpt-card.md'), '# Excerpt card\n\n> 漢字と仮名\n');
  const card = must(run.fileRef('card/excerpt-card.md', 'card'));
  const check = { id: 'card_exists', object: 'card/excerpt-card.md', condition: 'a card is on disk', evidence: 'on disk', verdict: 'pass' } as const;
  must(run.append('acceptance', { accepted: true, checks: [check], files: [card] }));
  const head = must(run.append('run_end', { accepted: true, exit_code: 0, ending: 'completed', summary: 'accepted' }));
  const seal = must(run.close());
  return { dir: run.dir, head, seal };
}
