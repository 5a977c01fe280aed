/**
 * Seeded randomness: mulberry32, small and fast, the same sequence for the
 * same seed on every machine. The framing fuzzers and probe's schema fuzzer
 * draw from it, so a run is reproducible from its seed.
 */

export interface Rng {
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  bytes(n: number): Uint8Array;
}

/** A generator seeded with `seed` (taken as an unsigned 32-bit integer). */
export function rng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return {
    int,
    pick: (items) => items[int(items.length)]!,
    chance: (p) => next() < p,
    bytes: (n) => Uint8Array.from({ length: n }, () => int(256)),
  };
}
