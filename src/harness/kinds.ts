import type { KindTable } from '../contract/index.ts';

/** The failures the harness raises: scenarios, the loop's bounds, the record, and the recheck of a recorded run. */
export const HARNESS_KINDS = {
  bad_scenario: { class: 'invalid_arguments', basis: null },
  unknown_scenario: { class: 'invalid_arguments', basis: null },
  bad_replay: { class: 'invalid_arguments', basis: null },
  duplicate_call_id: { class: 'invalid_arguments', basis: null },
  too_many_calls: { class: 'invalid_arguments', basis: null },
  too_large: { class: 'precondition', basis: null },
  // more deferred tools than one request may carry (LIMITS.deferredTools)
  too_many_deferred: { class: 'precondition', basis: null },
  // a defer name the host cannot defer (ToolSearch itself)
  not_deferrable: { class: 'invalid_arguments', basis: null },
  record_write_failed: { class: 'business', basis: null },
  // the host: a method package not found
  unknown_skill: { class: 'invalid_arguments', basis: null },
  // tool mode: a Skill call naming a known package this request's catalog does not list (held by paths, not model-invocable)
  skill_not_in_catalog: { class: 'precondition', basis: null },
  // tool mode with no package to list (--skill-mode tool, an empty catalog)
  empty_catalog: { class: 'invalid_arguments', basis: null },
  // a host option out of its range (maxTokens)
  bad_option: { class: 'invalid_arguments', basis: null },
  // two tools of a run under one name (the offers, then the table)
  duplicate_tool: { class: 'invalid_arguments', basis: null },
  // a configured server's tools/list entry that cannot be bound (no name, no object inputSchema): that tool stays unbound
  malformed_tool: { class: 'protocol', basis: null },
  // a configured server's listed schema with no validator (it does not compile, refers outside itself…): that tool stays unbound
  unbindable_schema: { class: 'protocol', basis: null },
  // a call to a configured server whose session already ended: refused before its handler, nothing sent
  server_closed: { class: 'precondition', basis: null },
  // a tool listed with execution.taskSupport "required" on a 2025-11-25 server that declares no tasks.requests.tools.call: never sent
  task_unsupported: { class: 'precondition', basis: null },
  // the recheck: the record's story against itself (all evidence)
  bad_event: { class: 'evidence', basis: null },
  misplaced_event: { class: 'evidence', basis: null },
  missing_event: { class: 'evidence', basis: null },
  bad_response_file: { class: 'evidence', basis: null },
  binding_mismatch: { class: 'evidence', basis: null },
  response_mismatch: { class: 'evidence', basis: null },
  call_missing: { class: 'evidence', basis: null },
  call_unasked: { class: 'evidence', basis: null },
  call_inconsistent: { class: 'evidence', basis: null },
  // a call's task (record format 12) that does not tell one story: its transitions, its outcome, its binding's completion
  task_inconsistent: { class: 'evidence', basis: null },
  result_mismatch: { class: 'evidence', basis: null },
  arguments_mismatch: { class: 'evidence', basis: null },
  count_mismatch: { class: 'evidence', basis: null },
  acceptance_mismatch: { class: 'evidence', basis: null },
  // deferred tools (format 8): a request's recorded disclosure is not its payload's, a deferred call ran undisclosed, a search answers otherwise
  disclosure_mismatch: { class: 'evidence', basis: null },
  undisclosed_call: { class: 'evidence', basis: null },
  search_mismatch: { class: 'evidence', basis: null },
  // skill tool mode: a request's skill_catalog is not what its payload's <skills> block lists
  catalog_mismatch: { class: 'evidence', basis: null },
  // skill tool mode: a request's adoption record is not what its payload's Skill results show
  adoption_mismatch: { class: 'evidence', basis: null },
  // W9 subagents: a type file that does not parse, two files of one type, an Agent call naming no type or a refused one
  bad_agent_file: { class: 'invalid_arguments', basis: null },
  duplicate_agent_type: { class: 'invalid_arguments', basis: null },
  unknown_subagent_type: { class: 'invalid_arguments', basis: null },
  subagent_type_refused: { class: 'precondition', basis: null },
  // a type wider than its caller (a tool, a permission mode, an MCP server it lacks), an Agent call inside a subagent
  subagent_tools_wider: { class: 'precondition', basis: null },
  subagent_nested: { class: 'precondition', basis: null },
  isolation_unsupported: { class: 'precondition', basis: null },
  background_unsupported: { class: 'precondition', basis: null },
  too_many_subagents: { class: 'precondition', basis: null },
  // a subagent that stopped without a final text (script exhausted, a limit), or whose inside outcome is unknown
  subagent_incomplete: { class: 'business', basis: null },
  subagent_outcome_unknown: { class: 'closed', basis: null },
  // verify: a subagent's records against themselves and its Agent call
  subagent_mismatch: { class: 'evidence', basis: null },
  // a record naming a task this recheck (or this caplab) does not know
  unknown_task: { class: 'evidence', basis: null },
  // verify: a task's recheck that threw
  verifier_error: { class: 'evidence', basis: null },
} as const satisfies KindTable;

declare module '../contract/index.ts' {
  interface FailureTables {
    readonly harness: typeof HARNESS_KINDS;
  }
}
