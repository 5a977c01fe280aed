import type { KindTable } from '../contract/index.ts';

/** The failures the pipeline raises: settings, rules and matchers, permission, hooks, the handler and its result. */
export const PIPELINE_KINDS = {
  bad_settings: { class: 'invalid_arguments', basis: null },
  bad_rule: { class: 'invalid_arguments', basis: null },
  bad_matcher: { class: 'invalid_arguments', basis: null },
  unknown_name: { class: 'invalid_arguments', basis: null },
  // permission_denied: the kind names who decided (a custom permission function may deny by default)
  rule: { class: 'permission_denied', basis: null },
  flag: { class: 'permission_denied', basis: null },
  hook: { class: 'permission_denied', basis: null },
  policy: { class: 'permission_denied', basis: null },
  default: { class: 'permission_denied', basis: null },
  hook_conflict: { class: 'permission_denied', basis: null },
  run_interrupted: { class: 'precondition', basis: null },
  // a deferred tool called under a request that did not disclose it (resolve): a host rule, as the excerpt's
  // sources_not_disclosed; no basis row, since a basis names what a refused server broke
  tool_not_disclosed: { class: 'precondition', basis: null },
  handler_threw: { class: 'business', basis: null },
  handler_timeout: { class: 'timeout', basis: null },
  // a result outside the pinned result schema: a local handler's bug, or an MCP server's (recorded without a basis)
  result_invalid: { class: 'business', basis: null },
  output_invalid: { class: 'protocol', basis: null },
} as const satisfies KindTable;

declare module '../contract/index.ts' {
  interface FailureTables {
    readonly pipeline: typeof PIPELINE_KINDS;
  }
}
