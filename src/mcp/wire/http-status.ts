import { clip } from '../../base/index.ts';
import { fail, refusal, type Failure } from '../../contract/index.ts';
import { refuse } from './basis.ts';

/** A header value shown in a message: JSON-quoted (control characters escaped) and cut. */
export function shown(value: string | null): string {
  return value === null ? '(none)' : JSON.stringify(clip(value, 200, 'head'));
}

/** The `resource_metadata` URL a `WWW-Authenticate` challenge names (RFC 9728 §5.1), if any. */
export function resourceMetadata(challenge: string | null): string | undefined {
  const match = challenge?.match(/(?:^|[\s,])resource_metadata\s*=\s*(?:"([^"]*)"|([^\s,]+))/i);
  return match ? (match[1] ?? match[2]) : undefined;
}

/**
 * What an HTTP status that carries no MCP answer means for the session, or
 * undefined for a 2xx: a 3xx is never followed (protocol/redirect naming
 * `Location`: the pinned URL is the one that runs the tools); 401 is
 * auth/unauthorized naming the challenge's `resource_metadata` URL (never
 * fetched: caplab does no OAuth); 403 auth/forbidden; a 404 to a message that
 * carried a session id is closed/session_gone (the spec: the server ended the
 * session; what was in flight is unknown); any other 4xx protocol/http_status;
 * a 5xx closed/server_error (the server may have begun the work).
 *
 * @param what The message the status answered, for the message (`tools/call #3`).
 */
export function statusFailure(what: string, response: Response, carriedSession: boolean): Failure | undefined {
  const { status } = response;
  if (status >= 200 && status < 300) return undefined;
  const head = `${what}: HTTP ${status}`;
  if (status >= 300 && status < 400) {
    return refuse('protocol', 'redirect', `${head} redirect to ${shown(response.headers.get('location'))}, not followed (the pinned URL is the one that runs the tools)`);
  }
  if (status === 401) {
    const metadata = resourceMetadata(response.headers.get('www-authenticate'));
    const named = metadata === undefined ? 'no resource_metadata named' : `resource_metadata ${shown(metadata)}, not fetched`;
    return fail('auth', 'unauthorized', `${head} Unauthorized (${named}; caplab does no OAuth: pass a token through the environment)`);
  }
  if (status === 403) return fail('auth', 'forbidden', `${head} Forbidden`);
  if (status === 404 && carriedSession) {
    return fail('closed', 'session_gone', `${head}: the server no longer knows this session; outcome of requests in flight unknown, never re-sent`);
  }
  if (status >= 500) return fail('closed', 'server_error', `${head} from the server; outcome of requests in flight unknown`);
  return refuse('protocol', 'http_status', `${head}: not an MCP answer`);
}

/** Bun's error codes for a connection that never carried an answer (refused, DNS, TLS, reset). */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.name : 'error';
}

/**
 * A fetch that threw before any status: no connection (refused, DNS, TLS) or
 * one that broke before the answer. The request may have reached the server,
 * so its outcome is unknown: closed/unreachable naming Bun's error code.
 */
export function fetchFailure(what: string, error: unknown): Failure {
  const message = error instanceof Error ? error.message : String(error);
  return fail('closed', 'unreachable', `${what}: no HTTP answer (${errorCode(error)}: ${clip(message, 200, 'head')}); outcome unknown`);
}

/** Visible ASCII (0x21–0x7E) within the bound, as the spec requires of `Mcp-Session-Id`. */
export function sessionIdFailure(id: string, maxBytes: number): Failure | undefined {
  // The bound is caplab's own; the character rule the spec's.
  if (id.length > maxBytes) return refusal('protocol', 'bad_session_id', 'caplab host rule', `Mcp-Session-Id is ${id.length} bytes, over ${maxBytes} (httpSessionIdBytes)`);
  if (!/^[\x21-\x7e]+$/.test(id)) return refuse('protocol', 'bad_session_id', 'Mcp-Session-Id is empty or holds a character outside visible ASCII (0x21–0x7E), as the spec forbids');
  return undefined;
}
