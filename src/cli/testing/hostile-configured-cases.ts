/**
 * TEST ONLY — what the hostile configured server (`hostile-configured.ts`)
 * sends, for its tests to compare with: its modes, names, sizes and strings.
 * Importing this starts nothing (the server module is a process of its own).
 */

export const CONFIGURED_HOSTILE_MODES = [
  'schemas', 'deep', 'names', 'duplicate', 'collide', 'many', 'endless', 'cursor-loop', 'string-entry', 'list-error',
  'always-changed', 'relist-removes', 'results', 'silent', 'garbage', 'flood', 'orphan',
] as const;
export type ConfiguredHostileMode = (typeof CONFIGURED_HOSTILE_MODES)[number];

/** The text of a description over 2 KiB, with a terminal escape (red, then a title change) at its start. */
export const ANSI_DESCRIPTION = `\u001b[31mred\u001b]0;owned\u0007 ${'d'.repeat(3_000)}`;
/** serverInfo of the `names` mode: escapes a terminal would act on. */
export const ANSI_SERVER = { name: 'evil\u001b[2Jserver', version: '1.0\u001b[31m' };
/** The names the `names` mode lists, in order (the empty one is unbindable). */
export const HOSTILE_NAMES = ['with space', 'dot.ted', 'a.b', 'a_b', 'café', '😀', `n${'x'.repeat(199)}`, '', 'esc\u001b[31mape'] as const;
/** What each of `endless`'s cursors ends with: a C1 CSI and a bidi override, which JSON.stringify leaves as they are. */
export const HOSTILE_CURSOR = '\u009b31m\u202e';
/** The tool `relist-removes` adds on its re-list: a name with an escape. */
export const ADDED_NAME = 'new\u001b[31m\u009b2Jtool';
/** The tools the `many` mode lists. */
export const MANY_TOOLS = 5_000;
/** Bytes of text the `big` result sends: over LIMITS.mcpResultBytes (64 KiB). */
export const BIG_RESULT_BYTES = 100_000;
/** Content blocks of the `blocks` result. */
export const MANY_BLOCKS = 10_000;
/** Base64 characters of the image and audio blocks (under the 1 MiB line bound). */
export const BASE64_CHARS = 600_000;
/** Nesting of the `deep` mode's inputSchema. */
export const DEEP_LEVELS = 200_000;
