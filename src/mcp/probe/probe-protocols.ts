/**
 * The revisions `probe --protocol` names, with no imports: the CLI reads them
 * to parse the flag without loading the prober.
 */

/** The modern (stateless) revision probe speaks, over stdio. */
export const MODERN_VERSION = '2026-07-28';

/** The revision `auto` offers in `initialize` when the server is not modern (the newest probe reads). */
export const AUTO_LEGACY_VERSION = '2025-11-25';

/** What `--protocol` names: `auto` (try the modern era, else initialize), or one revision pinned. */
export type ProtocolChoice = 'auto' | string;
