import type { ReadSourceResult } from './contracts.ts';
import { sourceById, type Snapshot } from './snapshot.ts';

/** The read_source result for one snapshot source, as both transports return it (the local tool and the fixture server). */
export function readSourceResult(snapshot: Snapshot, id: string): ReadSourceResult | undefined {
  const source = sourceById(snapshot, id);
  if (!source) return undefined;
  return { source_id: id as ReadSourceResult['source_id'], text: source.text, sha256: source.sha256, bytes: source.byteLength, snapshot: snapshot.id };
}
