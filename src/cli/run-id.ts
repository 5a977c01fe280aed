// Apart from paths.ts so that --help loads no contract module (test/module-graph.test.ts).
/**
 * A run id: 1–64 of `[A-Za-z0-9._-]`, starting with a letter, a digit or `_`.
 * It becomes a folder name under `caplab-runs/`, so `.`, `..`, hidden names
 * and names that read as flags are refused.
 */
export const RUN_ID = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;

/** The run-id rule in words, for `--help` and usage errors. */
export const RUN_ID_RULE = '1–64 of [A-Za-z0-9._-], starting with a letter, digit or _';
