/**
 * What caplab tells its guard process (see guard.ts), one JSON object a line:
 * a process group or a folder registered (`add: true`) or released. Pure,
 * imported by both sides; main.ts imports it too, for `GUARD_ARG`, so it
 * imports nothing.
 */

/** The hidden argument that makes caplab's own executable the guard (never listed in --help). */
export const GUARD_ARG = '__guard';

export type GuardMessage =
  | { readonly kind: 'group'; readonly add: boolean; readonly pgid: number }
  | { readonly kind: 'folder'; readonly add: boolean; readonly path: string };

/** One line of the guard's input. */
export function encodeGuardMessage(message: GuardMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * A process group the guard may signal as `kill(-pgid)`: never 0 (the guard's
 * own group) or 1 (`kill(-1)` signals every process the user may signal).
 */
export function isGuardableGroup(pgid: unknown): pgid is number {
  return typeof pgid === 'number' && Number.isSafeInteger(pgid) && pgid > 1;
}

/** A line read back; anything but a well-formed message is undefined (and ignored by the guard). */
export function decodeGuardMessage(line: string): GuardMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, add, pgid, path } = value as Record<string, unknown>;
  if (typeof add !== 'boolean') return undefined;
  if (kind === 'group' && isGuardableGroup(pgid)) return { kind, add, pgid };
  if (kind === 'folder' && typeof path === 'string' && path.startsWith('/') && path.length > 1) return { kind, add, path };
  return undefined;
}
