/**
 * Files embedded in the program (fixtures, scenarios, skill packages), the
 * same under `bun run`, `bun test` and the compiled binary.
 */
import { EMBEDDED } from './manifest.gen.ts';

/** The text of an embedded file, or undefined. Paths are repository-relative. */
export function assetText(path: string): string | undefined {
  return EMBEDDED[path];
}

/** The UTF-8 bytes of an embedded file, or undefined. */
export function assetBytes(path: string): Uint8Array | undefined {
  const text = EMBEDDED[path];
  return text === undefined ? undefined : new TextEncoder().encode(text);
}

/** Embedded paths under a folder prefix, sorted. */
export function assetPaths(prefix: string): readonly string[] {
  const folder = prefix.endsWith('/') ? prefix : `${prefix}/`;
  return Object.keys(EMBEDDED)
    .filter((path) => path.startsWith(folder))
    .sort();
}
