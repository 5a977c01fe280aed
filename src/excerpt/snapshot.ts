import { canonicalHash, sha256Hex } from '../contract/index.ts';

/** One source as read once at startup. Bytes are never re-read. */
export interface SourceSnapshot {
  readonly id: string;
  readonly bytes: Uint8Array;
  readonly text: string;
  readonly sha256: string;
  readonly byteLength: number;
}

/**
 * The immutable startup snapshot of the task's sources: the run records it
 * (`snapshot/<id>.md`), tools answer from it, and disclosure is computed
 * against it. The fixture server loads this file too, and nothing of the host.
 */
export interface Snapshot {
  readonly id: string;
  /** Sources in the task's fixed order. */
  readonly sources: readonly SourceSnapshot[];
}

/**
 * Takes the startup snapshot from raw bytes: the only material sources can be
 * quoted from. Decoding is fatal: a source that is not valid UTF-8 is refused
 * rather than silently repaired.
 */
export function takeSnapshot(files: readonly { readonly id: string; readonly bytes: Uint8Array }[]): Snapshot {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const sources = files.map(({ id, bytes }) => {
    const copy = new Uint8Array(bytes);
    return Object.freeze({
      id,
      bytes: copy,
      text: decoder.decode(copy),
      sha256: sha256Hex(copy),
      byteLength: copy.byteLength,
    });
  });
  const id = `snap-${canonicalHash(sources.map((s) => [s.id, s.sha256])).slice(0, 16)}`;
  return Object.freeze({ id, sources: Object.freeze(sources) });
}

/** Finds a source by exact id. */
export function sourceById(snapshot: Snapshot, id: string): SourceSnapshot | undefined {
  return snapshot.sources.find((source) => source.id === id);
}
