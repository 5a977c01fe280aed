import { fail, type Outcome } from '../contract/index.ts';
import type { EventInput, EventType, FileRef, RunDir, WrittenFile } from '../ledger/index.ts';

/**
 * What the loop needs from the run record: write a file, reference a file,
 * append an event. Every write returns an Outcome; a refused one stops the
 * step that made it, and the loop's fold stops there. `recorderOf` adapts the
 * ledger's RunDir to it.
 */
export interface RunRecorder {
  /**
   * Writes a file inside the run dir atomically and returns its reference;
   * `precondition/record_limit` where the file would pass a record limit,
   * `business/record_write_failed` where the write itself failed.
   */
  writeFile(relPath: string, bytes: Uint8Array): Outcome<WrittenFile>;
  /** References a file something else wrote into the run dir (a task's artifact), hashed from disk now; undefined if absent. */
  fileRef(relPath: string, role: string): FileRef | undefined;
  /**
   * Appends one event of its type's schema (the ledger's events.ts); returns
   * its hash. Files it vouches for go in `files: [{ role, path, sha256, bytes }]`.
   * Refused as `writeFile` is.
   */
  append<K extends EventType>(type: K, data: EventInput<K>): Outcome<string>;
}

/**
 * A write the record could not take: a record limit stays itself (the run
 * ends `failed` at that bound, and its record still verifies); any other
 * refusal (a failed write, a file that changed under its reference) is
 * `business/record_write_failed`, naming it, and the run ends there.
 */
function refusedWrite<T>(outcome: Outcome<T>): Outcome<T> {
  if (outcome.ok || outcome.kind === 'record_limit') return outcome;
  return fail('business', 'record_write_failed', `${outcome.class}/${outcome.kind}: ${outcome.message}`);
}

/** The ledger's run dir as the loop's recorder. */
export function recorderOf(run: RunDir): RunRecorder {
  return {
    writeFile: (relPath, bytes) => refusedWrite(run.writeFile(relPath, bytes)),
    fileRef: (relPath, role) => {
      const ref = run.fileRef(relPath, role);
      return ref.ok ? ref.value : undefined;
    },
    append: (type, data) => refusedWrite(run.append(type, data)),
  };
}
