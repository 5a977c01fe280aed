/**
 * Seeded randomness for the framing fuzzers: a run is reproducible from its
 * seed (`CAPLAB_FUZZ_SEED=<n>`), which every failure message names.
 */

/** The seed of this run: CAPLAB_FUZZ_SEED when set, otherwise a fixed one. */
export function fuzzSeed(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const given = Number(env['CAPLAB_FUZZ_SEED']);
  return Number.isSafeInteger(given) && env['CAPLAB_FUZZ_SEED'] !== '' ? given >>> 0 : 0x5eed_c0de;
}

// The generator itself lives in base (probe's schema fuzzer draws from it too).
import { rng, type Rng } from '../../../base/index.ts';

export { rng };
export type { Rng };

/** Text pieces that stress UTF-8: ASCII, 2-, 3- and 4-byte characters, escapes, controls. */
const PIECES = ['a', 'Z', ' ', '"', '\\', '\n', '\t', '\u0000', 'é', 'ß', '茶', '账本', '—', '𠀋', '😀', '👩‍🔬', 'e\u0301', '\u2028', '{', '}', '[', ']'];

export function randomText(r: Rng, maxPieces = 12): string {
  return Array.from({ length: r.int(maxPieces + 1) }, () => r.pick(PIECES)).join('');
}

/** Random cut points of a byte length: sorted, distinct, inside (0, length). */
export function cuts(r: Rng, length: number, count: number): number[] {
  const points = new Set<number>();
  for (let i = 0; i < count && length > 1; i++) points.add(1 + r.int(length - 1));
  return [...points].sort((a, b) => a - b);
}

/** Splits bytes at the given points into views. */
export function split(bytes: Uint8Array, points: readonly number[]): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

/** Byte offsets that fall inside a multi-byte UTF-8 character (continuation bytes). */
export function insideCharacters(bytes: Uint8Array): number[] {
  const inside: number[] = [];
  for (let i = 1; i < bytes.byteLength; i++) if ((bytes[i]! & 0xc0) === 0x80) inside.push(i);
  return inside;
}
