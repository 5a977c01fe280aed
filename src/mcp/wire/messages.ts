import { issuePath } from '../../base/index.ts';
import * as v from 'valibot';
import { ok, type Outcome } from '../../contract/index.ts';
import { refuse } from './basis.ts';
import { rawFacts } from './raw-json.ts';

/**
 * The JSON-RPC 2.0 and MCP 2025-06-18 messages the strict client accepts.
 * Envelopes are strict (JSON-RPC fixes their members); MCP results are loose
 * because the spec lets them carry `_meta` and later optional fields.
 */

/** MCP ids are strings or integers, never null (2025-06-18 basic/index). */
export const JsonRpcId = v.union([v.string(), v.pipe(v.number(), v.safeInteger())]);
export type JsonRpcId = v.InferOutput<typeof JsonRpcId>;

const version = v.literal('2.0');
const params = v.optional(v.record(v.string(), v.unknown()));

export const ResultResponse = v.strictObject({ jsonrpc: version, id: JsonRpcId, result: v.record(v.string(), v.unknown()) });
export const ErrorObject = v.strictObject({
  code: v.pipe(v.number(), v.safeInteger()),
  message: v.string(),
  data: v.optional(v.unknown()),
});
/** `id: null` is legal JSON-RPC for "could not read your request"; it correlates with nothing. */
export const ErrorResponse = v.strictObject({ jsonrpc: version, id: v.nullable(JsonRpcId), error: ErrorObject });
export const InboundRequest = v.strictObject({ jsonrpc: version, id: JsonRpcId, method: v.string(), params });
export const InboundNotification = v.strictObject({ jsonrpc: version, method: v.string(), params });

export type ResultResponse = v.InferOutput<typeof ResultResponse>;
export type ErrorResponse = v.InferOutput<typeof ErrorResponse>;
export type ErrorObject = v.InferOutput<typeof ErrorObject>;

/** One decoded inbound message, tagged by what it is. */
export type InboundMessage =
  | { readonly type: 'result'; readonly message: ResultResponse }
  | { readonly type: 'error'; readonly message: ErrorResponse }
  | { readonly type: 'request'; readonly message: v.InferOutput<typeof InboundRequest> }
  | { readonly type: 'notification'; readonly message: v.InferOutput<typeof InboundNotification> };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return issues.map((issue) => `${issuePath(issue) ?? ''}: ${issue.message}`);
}

/**
 * Decodes one line (without its `\n`) into exactly one JSON-RPC message.
 * Decoding is fatal: invalid UTF-8 is refused, never replaced.
 *
 * @returns The message, or protocol/encoding, protocol/framing (not JSON at
 *   all: a banner, blank line, padding, CR), or a refusal of `decodeText`.
 */
export function decodeLine(line: Uint8Array): Outcome<InboundMessage> {
  let text: string;
  try {
    text = decoder.decode(line);
  } catch {
    return refuse('protocol', 'encoding', 'inbound line is not valid UTF-8');
  }
  // Padding, CR or a BOM means the peer is not writing bare JSON lines.
  if (text.length === 0 || text !== text.trim()) {
    return refuse('protocol', 'framing', `inbound line is not a bare JSON text: ${JSON.stringify(text.slice(0, 80))}`);
  }
  return decodeText(text);
}

/**
 * Reads one JSON text as exactly one JSON-RPC message, whatever transport
 * carried it, with what only the text still shows: a key repeated in any
 * object is protocol/duplicate_key (a reader keeping the first and one
 * keeping the last would see two messages), and a response whose id is a
 * number not written as an integer (`1.0`, `1e0`) is protocol/unknown_id —
 * caplab sends integers, and ids match by JSON type and text.
 *
 * @returns The message, or protocol/framing (not JSON), duplicate_key,
 *   unknown_id or not_jsonrpc (see `decodeMessage`).
 */
export function decodeText(text: string): Outcome<InboundMessage> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('protocol', 'framing', `non-protocol bytes on stdout: ${JSON.stringify(text.slice(0, 80))}`);
  }
  const facts = rawFacts(text);
  if (facts.duplicateKey !== undefined) {
    return refuse('protocol', 'duplicate_key', `inbound message repeats the key ${JSON.stringify(facts.duplicateKey.slice(0, 80))} in one object`);
  }
  const decoded = decodeMessage(value);
  if (!decoded.ok || (decoded.value.type !== 'result' && decoded.value.type !== 'error')) return decoded;
  const { id } = decoded.value.message;
  if (typeof id === 'number' && facts.idNumberText !== String(id)) {
    return refuse('protocol', 'unknown_id', `response id written ${facts.idNumberText?.slice(0, 40)}, which reads as ${id} but matches no request by JSON text (caplab sends integers)`);
  }
  return decoded;
}

/**
 * Reads one parsed JSON value as exactly one JSON-RPC message, whatever
 * transport carried it: a batch, a non-object or a malformed envelope is
 * protocol/not_jsonrpc.
 */
export function decodeMessage(value: unknown): Outcome<InboundMessage> {
  if (Array.isArray(value)) return refuse('protocol', 'not_jsonrpc', 'JSON-RPC batches are not part of MCP 2025-06-18');
  if (value === null || typeof value !== 'object') return refuse('protocol', 'not_jsonrpc', 'inbound line is not a JSON object');
  const record = value as Record<string, unknown>;
  if ('method' in record) {
    const parsed = 'id' in record ? v.safeParse(InboundRequest, value) : v.safeParse(InboundNotification, value);
    if (parsed.success) {
      return 'id' in record
        ? ok({ type: 'request', message: parsed.output as v.InferOutput<typeof InboundRequest> })
        : ok({ type: 'notification', message: parsed.output });
    }
    return refuse('protocol', 'not_jsonrpc', 'malformed JSON-RPC request or notification', describeIssues(parsed.issues));
  }
  if ('error' in record) {
    const parsed = v.safeParse(ErrorResponse, value);
    if (parsed.success) return ok({ type: 'error', message: parsed.output });
    return refuse('protocol', 'not_jsonrpc', 'malformed JSON-RPC error response', describeIssues(parsed.issues));
  }
  const parsed = v.safeParse(ResultResponse, value);
  if (parsed.success) return ok({ type: 'result', message: parsed.output });
  return refuse('protocol', 'not_jsonrpc', 'malformed JSON-RPC response', describeIssues(parsed.issues));
}

/** What the client sends: a request, a notification, or its answer to a server request. */
export type OutboundMessage =
  | { readonly jsonrpc: '2.0'; readonly id: JsonRpcId; readonly method: string; readonly params: Readonly<Record<string, unknown>> }
  | { readonly jsonrpc: '2.0'; readonly method: string; readonly params: Readonly<Record<string, unknown>> }
  | { readonly jsonrpc: '2.0'; readonly id: JsonRpcId; readonly result: Readonly<Record<string, unknown>> }
  | { readonly jsonrpc: '2.0'; readonly id: JsonRpcId; readonly error: ErrorObject };

/** Encodes one outbound message as a single `\n`-terminated UTF-8 line. */
export function encodeLine(message: Readonly<Record<string, unknown>>): Uint8Array {
  // JSON.stringify escapes control characters, so the text never holds a raw newline.
  return encoder.encode(`${JSON.stringify(message)}\n`);
}

/** A correlation key that keeps the JSON type: `1` and `"1"` never match. */
export function idKey(id: JsonRpcId): string {
  return JSON.stringify(id);
}

export { describeIssues };
