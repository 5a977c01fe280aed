import type { KindTable } from '../../contract/index.ts';

/**
 * The failures mcp's layers raise (wire, client, server, probe, config). A
 * refusal of the server names its basis (SPEC F-PROBE: every refusal names
 * its basis): the stdio
 * transport and JSON-RPC rules are the spec's MUSTs ("The server MUST NOT
 * write anything to its stdout that is not a valid MCP message"; "Responses
 * MUST include the same ID as the request"; servers with an outputSchema
 * "MUST provide structured results that conform to this schema" — the pinned
 * schema is the listed one, or the handshake refused it as tool_drift). What
 * the fixed profile narrows further — one revision, one page, exactly the
 * pinned tools, a line limit, no key written twice in one object (RFC 8259:
 * readers of it disagree), never choosing between a text and a structured
 * answer that disagree, a JSON-RPC error on a call the host already validated
 * — is caplab's own. Everything else is caplab's own failure: `null`.
 */
export const MCP_KINDS = {
  framing: { class: 'protocol', basis: 'spec MUST' },
  encoding: { class: 'protocol', basis: 'spec MUST' },
  not_jsonrpc: { class: 'protocol', basis: 'spec MUST' },
  duplicate_response: { class: 'protocol', basis: 'spec MUST' },
  unknown_id: { class: 'protocol', basis: 'spec MUST' },
  malformed_result: { class: 'protocol', basis: 'spec MUST' },
  output_invalid: { class: 'protocol', basis: 'spec MUST' },
  too_large: { class: 'protocol', basis: 'caplab host rule' },
  duplicate_key: { class: 'protocol', basis: 'caplab host rule' },
  jsonrpc_error: { class: 'protocol', basis: 'caplab host rule' },
  version_mismatch: { class: 'protocol', basis: 'caplab host rule' },
  unexpected_tools: { class: 'protocol', basis: 'caplab host rule' },
  pagination_unsupported: { class: 'protocol', basis: 'caplab host rule' },
  tool_drift: { class: 'protocol', basis: 'caplab host rule' },
  result_conflict: { class: 'evidence', basis: 'caplab host rule' },
  // Streamable HTTP (http-transport.ts): the spec's MUSTs for what a server answers, and caplab's own rules
  // (a redirect is never followed: the pinned URL is the one that runs the tools)
  redirect: { class: 'protocol', basis: 'caplab host rule' },
  bad_session_id: { class: 'protocol', basis: 'spec MUST' },
  not_accepted: { class: 'protocol', basis: 'spec MUST' },
  bad_content_type: { class: 'protocol', basis: 'spec MUST' },
  no_answer: { class: 'protocol', basis: 'spec MUST' },
  // a 4xx other than 401/403/404-of-a-session: no MCP answer, and caplab ends the session on it
  http_status: { class: 'protocol', basis: 'caplab host rule' },
  // MCP 2026-07-28 (probe's modern era): every result names its resultType, cacheable ones carry ttlMs and cacheScope;
  // a result type probe never asked for ("input_required", "task") leaves the request's outcome unknown
  result_type: { class: 'protocol', basis: 'spec MUST' },
  unrequested_result_type: { class: 'protocol', basis: 'spec MUST' },
  cache_hints: { class: 'protocol', basis: 'spec MUST' },
  unauthorized: { class: 'auth', basis: null },
  forbidden: { class: 'auth', basis: null },
  // the tool answered isError: true
  tool_error: { class: 'business', basis: null },
  // the server could not be started, or ended before the handshake
  spawn_failed: { class: 'spawn', basis: null },
  exited_early: { class: 'spawn', basis: null },
  // outcome unknown: a deadline or an abort, or the connection went
  deadline: { class: 'timeout', basis: null },
  aborted: { class: 'timeout', basis: null },
  connection_lost: { class: 'closed', basis: null },
  // the host session: a call after its server's session ended is never sent
  server_closed: { class: 'precondition', basis: null },
  session_closed: { class: 'closed', basis: null },
  transport_error: { class: 'closed', basis: null },
  peer_not_reading: { class: 'closed', basis: null },
  callback_error: { class: 'closed', basis: null },
  // HTTP: the session the server issued is gone (404), a stream ended before its answer, a 5xx, no connection
  session_gone: { class: 'closed', basis: null },
  stream_dropped: { class: 'closed', basis: null },
  server_error: { class: 'closed', basis: null },
  unreachable: { class: 'closed', basis: null },
  // `serve`: a line that is not UTF-8 JSON (answered -32700)
  not_utf8: { class: 'invalid_arguments', basis: null },
  not_json: { class: 'invalid_arguments', basis: null },
  // config: a `.mcp.json` caplab cannot use (the user's file, not a peer's answer)
  malformed_config: { class: 'invalid_arguments', basis: null },
  unset_variable: { class: 'invalid_arguments', basis: null },
  untrusted_project: { class: 'permission_denied', basis: null },
  // two config names that would name their tools alike (server-keys.ts)
  bad_server_key: { class: 'invalid_arguments', basis: null },
  // an HTTP endpoint caplab cannot use as given (not an http(s) URL, a header it sets itself or cannot send)
  bad_endpoint: { class: 'invalid_arguments', basis: null },
  // config and `probe --url`: an HTTP server as the user names it (config/http-target.ts)
  bad_url: { class: 'invalid_arguments', basis: null },
  bad_header: { class: 'invalid_arguments', basis: null },
  literal_credential: { class: 'invalid_arguments', basis: null },
  plaintext_headers: { class: 'invalid_arguments', basis: null },
  // `probe --pins FILE`: a pin file that is missing (without --update-pins), not JSON, of another format, or unlike its own hashes
  malformed_pins: { class: 'invalid_arguments', basis: null },
} as const satisfies KindTable;

declare module '../../contract/index.ts' {
  interface FailureTables {
    readonly mcp: typeof MCP_KINDS;
  }
}
