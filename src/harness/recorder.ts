import type { Failure } from '../contract/index.ts';
import type { EventInput, EventType, WrittenFile } from '../ledger/index.ts';

/** A file in the run dir: path, sha256, size — the ledger's own shape. */
export type FileRef = WrittenFile;

/**
 * What the loop needs from the run record: write a file, reference a file,
 * append an event. `runTask` adapts the ledger's RunDir to it.
 */
export interface RunRecorder {
  /** Writes a file inside the run dir atomically and returns its reference. */
  writeFile(relPath: string, bytes: Uint8Array): FileRef;
  /** References a file something else wrote into the run dir (a task's artifact), hashed from disk now; undefined if absent. */
  fileRef(relPath: string, role: string): (FileRef & { readonly role: string }) | undefined;
  /**
   * Appends one event of its type's schema (the ledger's events.ts); returns
   * its hash. Files it vouches for go in `files: [{ role, path, sha256, bytes }]`.
   */
  append<K extends EventType>(type: K, data: EventInput<K>): string;
}

/**
 * Thrown by a recorder whose write would pass a record limit
 * (`precondition/record_limit`): the loop stops and the run ends `failed`
 * with it, so no run writes a record its own `verify` refuses.
 */
export class RecordRefused extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}
