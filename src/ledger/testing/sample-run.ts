/**
 * Writes a small but representative run dir for the tests: snapshot sources
 * (one with CJK text), a request payload and a response, a card written by
 * "someone else" (as create_card does) and referenced from disk, and events
 * that vouch for all of them. Not exported from the folder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../test/scratch.ts';
import { fixedClock, type Clock } from '../clock.ts';
import type { Seal } from '../format.ts';
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

/** Writes the sample run into `dir` (which must not exist or be empty). */
export function writeSampleRun(dir: string, clock: Clock = fixedClock(1_700_000_000_000), fs?: RunDirFs): SampleRun {
  const run = must(openRunDir(dir, fs ? { clock, fs } : { clock }));
  const alpha = must(run.writeFile('snapshot/alpha.md', 'Alpha source.\nPlain ASCII, two lines.\n'));
  const beta = must(run.writeFile('snapshot/beta.md', 'ベータ資料：漢字と仮名。\nMixed 文字 text.\n'));
  must(
    run.append('run_start', {
      run_id: 'run-1',
      model: { name: 'scripted:happy', scripted: true },
      files: [
        { role: 'snapshot_source', ...alpha },
        { role: 'snapshot_source', ...beta },
      ],
    }),
  );
  const request = must(run.writeFile('requests/001-request.json', '{"messages":[{"role":"user","content":"Make a card."}]}\n'));
  must(run.append('request', { request_id: 'req-1', disclosed: [], files: [{ role: 'request_payload', ...request }] }));
  const response = must(run.writeFile('requests/001-response.json', '{"scripted":true,"stop_reason":"end_turn"}\n'));
  must(run.append('response', { request_id: 'req-1', scripted: true, files: [{ role: 'model_response', ...response }] }));
  // The card is written by the tool, not by the ledger; the ledger hashes it from disk.
  mkdirSync(join(run.dir, 'card'));
  writeFileSync(join(run.dir, 'card', 'excerpt-card.md'), '# Excerpt card\n\n> 漢字と仮名\n');
  const card = must(run.fileRef('card/excerpt-card.md', 'card'));
  must(run.append('receipt', { action_id: 'act-1', files: [card] }));
  must(run.append('acceptance', { accepted: true, checks: [{ id: 'card_exists', verdict: 'pass' }] }));
  const head = must(run.append('run_end', { accepted: true, exit_code: 0, ending: 'completed' }));
  const seal = must(run.close());
  return { dir: run.dir, head, seal };
}
