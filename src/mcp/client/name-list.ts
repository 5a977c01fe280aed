import { clipChars } from '../../base/index.ts';
import { LIMITS } from '../../contract/index.ts';

/** Names a message lists before it counts the rest. */
export const LISTED_NAMES = 20;

/**
 * Names for a message: the first `LISTED_NAMES`, each cut at `evidenceChars`,
 * then how many more there are, so a message grows with neither the number
 * nor the length of the names a server sent.
 *
 * @example
 * nameList(['a', 'b', …9,999 more]); // 'a, b, …, t (+9981 more)'
 */
export function nameList(names: readonly string[]): string {
  const shown = names.slice(0, LISTED_NAMES).map((name) => clipChars(name, LIMITS.evidenceChars));
  const more = names.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` (+${more} more)` : ''}`;
}
