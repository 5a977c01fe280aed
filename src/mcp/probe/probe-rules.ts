/**
 * Every kind probe reports, as a rule: its class and basis (what the
 * finding rests on), the level it gets by default and one line of help.
 * SARIF's levels: `error`, `warning`, `note`. A spec MUST is an error; a
 * spec SHOULD a warning; a caplab host rule a warning, except what makes a
 * gate wrong to pass (a name listed twice, a list that changed under the
 * session, a tool that failed, a call refused or of an unlisted name) and
 * every failure that ends the session or leaves an outcome unknown (the
 * transport's and the handshake's kinds, read from mcp's kind table).
 * `--fail-on` picks the lowest level that exits 1; `--level KIND=LEVEL`
 * changes a kind's, never lowering one a spec MUST rests on.
 */
import type { Basis, ErrorClass } from '../../contract/index.ts';
import { MCP_KINDS } from '../wire/index.ts';

export const LEVELS = ['error', 'warning', 'note'] as const;
export type Level = (typeof LEVELS)[number];

export interface ProbeRule {
  readonly class: ErrorClass;
  /** What findings of this kind rest on; a kind raised in more than one way lists each. */
  readonly basis: Basis | readonly [Basis, ...Basis[]];
  readonly level: Level;
  readonly help: string;
}

type McpKind = keyof typeof MCP_KINDS;

/** A session-ending kind of mcp's table, as probe reports it (`fromFailure`: a failure without a basis is the host's own). */
function ended(kind: McpKind, help: string): ProbeRule {
  const row = MCP_KINDS[kind];
  const errorClass = (Array.isArray(row.class) ? row.class[0] : row.class) as ErrorClass;
  return { class: errorClass, basis: row.basis ?? 'caplab host rule', level: 'error', help };
}

const rule = (errorClass: ErrorClass, basis: ProbeRule['basis'], level: Level, help: string): ProbeRule => ({ class: errorClass, basis, level, help });
const must = (errorClass: ErrorClass, help: string): ProbeRule => rule(errorClass, 'spec MUST', 'error', help);
const host = (level: Level, help: string, errorClass: ErrorClass = 'protocol'): ProbeRule => rule(errorClass, 'caplab host rule', level, help);
const NAME_RULE: ProbeRule['basis'] = ['spec SHOULD', 'caplab host rule'];

/** The listing, the session and the calls (probe's own findings). */
const PROFILE_RULES = {
  malformed_tool: must('protocol', 'a tools/list entry has no string name'),
  tool_name: rule('protocol', NAME_RULE, 'warning', 'a tool name that is not 1–128 of A-Za-z0-9_.- (the spec\'s SHOULD from 2025-11-25)'),
  duplicate_tool: rule('protocol', NAME_RULE, 'error', 'a tool name listed more than once: a host cannot tell which one it calls'),
  input_schema: must('protocol', 'an inputSchema that is not an object schema'),
  output_schema: must('protocol', 'an outputSchema that is not an object schema'),
  schema_invalid: must('protocol', 'a schema that does not compile as JSON Schema (draft-07 or 2020-12)'),
  schema_dialect: host('warning', 'a schema declaring a dialect probe does not read'),
  schema_unknown_keyword: host('warning', 'a schema keyword its dialect does not define (not checked)'),
  schema_unknown_format: host('warning', 'a format probe does not know (not checked)'),
  schema_strict: host('warning', 'a schema that compiles only leniently'),
  schema_async: host('warning', 'a schema with $async: a contract validates synchronously'),
  remote_ref: host('warning', 'a $ref outside the schema: probe never fetches one'),
  schema_ref_loop: host('warning', 'a $ref cycle that never descends into the instance; not compiled'),
  schema_too_deep: host('warning', 'a schema nested past probeSchemaDepth; not compiled'),
  schema_too_large: host('warning', 'a schema larger than probeSchemaBytes; not compiled'),
  non_finite_number: host('warning', 'a schema holding a number JSON cannot carry (1e400); not compiled'),
  compile_budget: host('warning', 'compiling the listing took longer than probeCompileMs; the rest not compiled', 'timeout'),
  oversized_description: host('warning', 'a description longer than probeDescriptionChars crowds the model\'s context'),
  empty_cursor: host('warning', 'an empty (or non-string) nextCursor: never sent back, the listing ends'),
  repeated_cursor: host('warning', 'a nextCursor repeated: the listing stops'),
  page_limit: host('warning', 'still paginating after probePages pages: the listing stops, incomplete'),
  too_many_tools: host('warning', 'more than probeTools tools: the rest counted, not checked'),
  no_tools_capability: must('protocol', 'the server does not declare the tools capability'),
  no_server_info: rule('protocol', 'spec SHOULD', 'warning', 'a 2026-07-28 server/discover result that does not name the server'),
  list_changed_undeclared: must('protocol', 'notifications/tools/list_changed without tools.listChanged declared'),
  tools_changed: host('error', 'the tool list changed during the session: a host pins what it listed'),
  server_request: must('protocol', 'a server request for a capability the client did not declare'),
  ping_unanswered: must('timeout', 'no answer to the closing ping within --timeout-ms'),
  discover_unanswered: must('timeout', 'no answer to the closing server/discover within --timeout-ms (2026-07-28)'),
  content_type: must('protocol', 'a content block type the revision does not define'),
  missing_structured_content: must('protocol', 'a tool declaring an outputSchema answered without structuredContent'),
  output_schema_violation: must('protocol', 'structuredContent that does not conform to the outputSchema'),
  text_without_structured: rule('protocol', 'spec SHOULD', 'warning', 'no text block carries the serialized structuredContent'),
  result_too_deep: host('warning', 'a tools/call result nested past probeResultDepth: not judged'),
  judging_timeout: host('warning', 'judging a result did not finish within --timeout-ms: the rest not checked', 'timeout'),
  is_error: host('error', 'the tool reported an error (isError: true)', 'business'),
  unlisted_tool: host('error', 'a --call of a name the server did not list (still sent once)'),
  // 2025-11-25: tasks, icons and the input-error channel (W10).
  task_support: must('protocol', 'an execution.taskSupport of unknown value, or "required" on a server without tasks.requests.tools.call'),
  icon_origin: rule('protocol', 'spec SHOULD', 'warning', 'an http(s) icon off the server\'s origin (any, for a stdio server); never fetched'),
  input_error_channel: rule('protocol', 'spec SHOULD', 'warning', 'arguments failing the inputSchema answered by a JSON-RPC error rather than isError'),
} as const satisfies Record<string, ProbeRule>;

/** What `--pins FILE` finds against the pinned listing (pins.ts). */
const PIN_RULES = {
  tool_added: host('error', 'a tool not in the pins: nothing approved it', 'evidence'),
  tool_renamed: host('error', 'a pinned tool listed under a new name (same description and inputSchema): every rule naming it misses it', 'evidence'),
  tool_changed: host('error', 'a pinned tool\'s name, title, description, inputSchema or a description inside a schema changed', 'evidence'),
  instructions_changed: host('error', 'the server\'s instructions changed', 'evidence'),
  server_unpinned: host('error', 'the pin file has no entry for this server', 'evidence'),
  tool_removed: host('warning', 'a pinned tool is no longer listed', 'evidence'),
  tool_meta_changed: host('warning', 'only a pinned tool\'s outputSchema, annotations, _meta or other members changed', 'evidence'),
  server_changed: host('warning', 'the server\'s name, protocol, capabilities or other serverInfo changed', 'evidence'),
  server_version_changed: host('note', 'only the server\'s version changed', 'evidence'),
} as const satisfies Record<string, ProbeRule>;

/** What `--fuzz` finds beyond a `--call`'s kinds (fuzz/fuzz-judge.ts). */
const FUZZ_RULES = {
  accepted_invalid_input: host('warning', 'a fuzzed argument set the inputSchema refuses was answered ok (no isError, no JSON-RPC error)'),
  fuzz_hang: host('error', 'a fuzzed set got no answer within --timeout-ms: outcome unknown (exit 4); the server restarted', 'timeout'),
  fuzz_exit: host('error', 'the server exited while a fuzzed set was pending: outcome unknown (exit 4); the server restarted', 'closed'),
  fuzz_session_ended: host('error', 'a fuzzed set was followed by non-protocol output or an exit with no call pending (exit 3); the server restarted'),
} as const satisfies Record<string, ProbeRule>;

/** Failures that end the session or leave a call's outcome unknown (exit 3 or 4 whatever the level). */
const ENDING_RULES = {
  framing: ended('framing', 'a stdout line that is not one JSON-RPC message'),
  encoding: ended('encoding', 'stdout bytes that are not UTF-8'),
  not_jsonrpc: ended('not_jsonrpc', 'a message that is not JSON-RPC 2.0'),
  duplicate_response: ended('duplicate_response', 'a second response to one request'),
  unknown_id: ended('unknown_id', 'a response id not written as the integer caplab sent'),
  malformed_result: rule('protocol', 'spec MUST', 'error', 'a result that breaks its shape (initialize, server/discover, tools/call)'),
  too_large: ended('too_large', 'a message over the line limit'),
  duplicate_key: ended('duplicate_key', 'a key twice in one JSON object (readers disagree on it)'),
  jsonrpc_error: ended('jsonrpc_error', 'a request refused with a JSON-RPC error'),
  version_mismatch: rule('protocol', ['spec SHOULD', 'caplab host rule'], 'error', 'the server answered a revision probe does not read'),
  redirect: ended('redirect', 'an HTTP redirect (never followed)'),
  bad_session_id: ended('bad_session_id', 'an MCP-Session-Id that is not visible ASCII'),
  not_accepted: ended('not_accepted', 'a notification answered other than 202'),
  bad_content_type: ended('bad_content_type', 'an HTTP answer neither application/json nor text/event-stream'),
  no_answer: ended('no_answer', 'an HTTP answer without the JSON-RPC response'),
  http_status: ended('http_status', 'an HTTP 4xx other than 401/403'),
  result_type: ended('result_type', 'a 2026-07-28 result without resultType'),
  unrequested_result_type: ended('unrequested_result_type', 'a 2026-07-28 resultType probe never asked for: outcome unknown'),
  cache_hints: ended('cache_hints', 'a 2026-07-28 result without valid ttlMs and cacheScope'),
  unauthorized: ended('unauthorized', 'HTTP 401'),
  forbidden: ended('forbidden', 'HTTP 403'),
  spawn_failed: ended('spawn_failed', 'the server could not be started'),
  exited_early: ended('exited_early', 'the server ended before the handshake'),
  deadline: ended('deadline', 'no answer within the deadline: outcome unknown'),
  aborted: ended('aborted', 'probe was interrupted while a request was pending'),
  connection_lost: ended('connection_lost', 'the server exited or closed its pipes'),
  session_closed: ended('session_closed', 'the session closed while a request was pending'),
  transport_error: ended('transport_error', 'the transport failed'),
  peer_not_reading: ended('peer_not_reading', 'the server left mcpUnsentBytes unread'),
  callback_error: ended('callback_error', 'a handler of the session failed'),
  session_gone: ended('session_gone', 'the HTTP session is gone (404)'),
  stream_dropped: ended('stream_dropped', 'an HTTP stream ended before its answer'),
  server_error: ended('server_error', 'an HTTP 5xx'),
  unreachable: ended('unreachable', 'the HTTP server could not be reached'),
  task_malformed: ended('task_malformed', 'a task object that breaks its shape: outcome unknown'),
  task_id: ended('task_id', 'a taskId that is not a string, is empty or over taskIdBytes, or names another task'),
  task_status: ended('task_status', 'a task status the revision does not define: outcome unknown'),
  task_first_status: ended('task_first_status', 'a CreateTaskResult whose first status is not working'),
  task_transition: ended('task_transition', 'a task status moving out of a terminal one: outcome unknown'),
  task_related_meta: ended('task_related_meta', 'a tasks/result that does not name its task in _meta'),
  task_poll_interval: { ...ended('task_poll_interval', 'a pollInterval below taskPollFloorMs (0 included): polled at the floor'), level: 'warning' },
  task_deadline: ended('task_deadline', 'a task not terminal by --timeout-ms: one tasks/cancel, outcome unknown'),
  task_cancelled: ended('task_cancelled', 'a task ended cancelled (ours or the server\'s): outcome unknown'),
} as const satisfies Record<string, ProbeRule>;

/** Every kind probe reports, with its default level and help. */
export const PROBE_RULES: Readonly<Record<string, ProbeRule>> = { ...PROFILE_RULES, ...PIN_RULES, ...FUZZ_RULES, ...ENDING_RULES };

/** The kinds `--pins` reports. */
export const PIN_KINDS: ReadonlySet<string> = new Set(Object.keys(PIN_RULES));

/** The bases a rule lists. */
export const basesOf = (rule: ProbeRule): readonly Basis[] => (typeof rule.basis === 'string' ? [rule.basis] : rule.basis);

/** Whether a level is at least as severe as `floor`. */
export const atLeast = (level: Level, floor: Level): boolean => LEVELS.indexOf(level) <= LEVELS.indexOf(floor);
