import type { KindTable } from '../contract/index.ts';

/** The failures the CLI raises: flags, paths and files found before any work, the `.mcp.json` entry probe picks, report files. */
export const CLI_KINDS = {
  bad_flag: { class: 'invalid_arguments', basis: null },
  bad_path: { class: 'invalid_arguments', basis: null },
  bad_run_id: { class: 'invalid_arguments', basis: null },
  target_exists: { class: 'precondition', basis: null },
  run_interrupted: { class: 'precondition', basis: null },
  write_failed: { class: 'business', basis: null },
  mcp_unavailable: { class: 'spawn', basis: null },
  unknown_server: { class: 'invalid_arguments', basis: null },
  // probe --server: a config entry of a type caplab does not speak (sse, ws …)
  unsupported_transport: { class: 'invalid_arguments', basis: null },
  // `probe --header-env NAME=VAR`: VAR unset or empty (probe-http.ts)
  unset_variable: { class: 'invalid_arguments', basis: null },
  // `--require-server KEY`: that configured server did not start (exit 3, no run dir)
  required_server: { class: 'spawn', basis: null },
  // `check --scenarios DIR`: more *.scenario.json files than LIMITS.checkScenarios, or none at all
  too_many_scenarios: { class: 'invalid_arguments', basis: null },
  no_scenarios: { class: 'invalid_arguments', basis: null },
  // `probe --fuzz-replay FILE`: a report over fuzzReplayBytes, missing, not JSON, or a fuzz finding without its tool, kind, seed, index or arguments (probe-fuzz.ts)
  malformed_replay: { class: 'invalid_arguments', basis: null },
} as const satisfies KindTable;

declare module '../contract/index.ts' {
  interface FailureTables {
    readonly cli: typeof CLI_KINDS;
  }
}
