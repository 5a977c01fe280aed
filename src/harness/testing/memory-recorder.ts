/** Test code only: a run recorder in memory, to test one loop step alone. */
import { ok, sha256Hex, type Failure } from '../../contract/index.ts';
import type { WrittenFile } from '../../ledger/index.ts';
import type { RunRecorder } from '../recorder.ts';

/** A write a test may refuse: a file by its path, an event by its type. */
export type RecordedWrite = { readonly file: string } | { readonly event: string; readonly data: Readonly<Record<string, unknown>> };

/** What the recorder took, in order. */
export interface MemoryRecorder extends RunRecorder {
  readonly events: { readonly type: string; readonly data: Readonly<Record<string, unknown>> }[];
  readonly files: Map<string, Uint8Array>;
}

/**
 * A recorder that keeps every file and event in memory; `refuse` may turn a
 * write down (nothing is kept then), as the run dir's limits or a failed disk would.
 */
export function memoryRecorder(refuse: (write: RecordedWrite) => Failure | undefined = () => undefined): MemoryRecorder {
  const events: MemoryRecorder['events'] = [];
  const files = new Map<string, Uint8Array>();
  const refOf = (path: string, bytes: Uint8Array): WrittenFile => ({ path, sha256: sha256Hex(bytes), bytes: bytes.byteLength });
  return {
    events,
    files,
    writeFile: (path, bytes) => {
      const refused = refuse({ file: path });
      if (refused) return refused;
      files.set(path, bytes);
      return ok(refOf(path, bytes));
    },
    fileRef: (path, role) => {
      const bytes = files.get(path);
      return bytes ? { role, ...refOf(path, bytes) } : undefined;
    },
    append: (type, data) => {
      const refused = refuse({ event: type, data });
      if (refused) return refused;
      events.push({ type, data });
      return ok(sha256Hex(`${events.length}`));
    },
  };
}
