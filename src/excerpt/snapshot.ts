import { canonicalHash, sha256Hex } from '../contract/index.ts';
// Types only (erased at build): the fixture server loads this file and nothing of the host.
import type { Snapshot, SourceSnapshot } from '../harness/index.ts';

export type { Snapshot, SourceSnapshot };

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
