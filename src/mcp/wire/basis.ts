import { fail, withBasis, type Basis, type ErrorClass, type Failure } from '../../contract/index.ts';

/**
 * What each refusal of the strict client rests on (SPEC F-PROBE: every refusal
 * names its basis). The stdio transport and JSON-RPC rules are the spec's
 * MUSTs ("The server MUST NOT write anything to its stdout that is not a valid
 * MCP message"; "Responses MUST include the same ID as the request"; servers
 * with an outputSchema "MUST provide structured results that conform to this
 * schema" — the pinned schema is the listed one, or the handshake refused it
 * as tool_drift). What the fixed profile narrows further — one revision, one
 * page, exactly the pinned tools, a line limit, no key written twice in one
 * object (RFC 8259: readers of it disagree), never choosing between a text
 * and a structured answer that disagree, a JSON-RPC error on a call the host
 * already validated — is caplab's own.
 */
export const STRICT_CLIENT_BASIS = {
  framing: 'spec MUST',
  encoding: 'spec MUST',
  not_jsonrpc: 'spec MUST',
  duplicate_response: 'spec MUST',
  unknown_id: 'spec MUST',
  malformed_result: 'spec MUST',
  output_invalid: 'spec MUST',
  too_large: 'caplab host rule',
  duplicate_key: 'caplab host rule',
  jsonrpc_error: 'caplab host rule',
  version_mismatch: 'caplab host rule',
  unexpected_tools: 'caplab host rule',
  pagination_unsupported: 'caplab host rule',
  tool_drift: 'caplab host rule',
  result_conflict: 'caplab host rule',
} as const satisfies Record<string, Basis>;

export type StrictKind = keyof typeof STRICT_CLIENT_BASIS;

/** A refusal of the strict client: a failure value that names its basis from the table above. */
export function refuse(errorClass: ErrorClass, kind: StrictKind, message: string, issues?: readonly string[]): Failure {
  return withBasis(fail(errorClass, kind, message, issues), STRICT_CLIENT_BASIS[kind]);
}
