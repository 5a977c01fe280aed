/**
 * The JSON-RPC 2.0 side of `caplab serve`: one inbound line in, at most one
 * answer out. Pure: no streams, no state. Every line is accounted for — an
 * answer on stdout, or a one-line note for stderr, or (a known notification)
 * nothing because it was acted on.
 */
import { fail, ok, type Outcome } from '../../contract/index.ts';

/** JSON-RPC 2.0 error codes the server answers with. */
export const RPC_ERROR = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603 } as const;

export type RpcId = string | number;

/**
 * A result a server gives again and again, serialized once: `json` is exactly
 * `JSON.stringify(result)` and `bytes` its UTF-8. Each answer splices it in
 * after the request's own id, so only the id is written per request.
 */
export interface SerializedResult<T extends Record<string, unknown> = Record<string, unknown>> {
  readonly result: T;
  readonly json: string;
  readonly bytes: Uint8Array;
}

const encoder = new TextEncoder();

/** Serializes a result once for `{ serialized }` answers; the caller must not change `result` afterwards. */
export function serializeResult<T extends Record<string, unknown>>(result: T): SerializedResult<T> {
  const json = JSON.stringify(result);
  return Object.freeze({ result, json, bytes: encoder.encode(json) });
}

/**
 * What a method handler returns: a result object (or one serialized ahead),
 * an error to answer with, or an answer deferred until it is known (a
 * `tasks/result` waits for its task to end; nothing else defers).
 */
export type MethodAnswer =
  | { readonly result: Record<string, unknown> }
  | { readonly serialized: SerializedResult }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } }
  | { readonly deferred: Promise<MethodAnswer> };

/**
 * What a server knows of the session a request belongs to: the revision its
 * `initialize` negotiated (stdio: one session per process, set by the
 * handler; HTTP: the session's, as its `MCP-Protocol-Version` names it).
 */
export interface ServeSession {
  version?: string | undefined;
}

/** A method handler; `params` is already known to be an object (`{}` when absent); no session: one that negotiated nothing yet. */
export type MethodHandler = (params: Readonly<Record<string, unknown>>, session?: ServeSession) => MethodAnswer;

export interface Methods {
  readonly requests: Readonly<Record<string, MethodHandler>>;
  /** Notifications the server acts on (or may ignore by design) without a word. */
  readonly notifications: ReadonlySet<string>;
}

/** The outcome of one line: exactly one of an answer (for stdout) or a note (for stderr), or neither. */
export type LineAnswer =
  | { readonly answer: Record<string, unknown>; readonly note?: undefined; readonly serialized?: SerializedResult; readonly deferred?: undefined }
  | { readonly note: string; readonly answer?: undefined; readonly deferred?: undefined }
  | { readonly answer?: undefined; readonly note?: undefined; readonly deferred?: Promise<LineAnswer> };

const ENVELOPE = new Set(['jsonrpc', 'id', 'method', 'params']);
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A value shown inside a message: JSON, cut short so a message stays one short line. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const isId = (value: unknown): value is RpcId => typeof value === 'string' || Number.isSafeInteger(value);

function error(id: RpcId | null, code: number, message: string): LineAnswer {
  return { answer: { jsonrpc: '2.0', id, error: { code, message } } };
}

/** One message's bytes as JSON: `not_utf8` or `not_json` when they are not (the HTTP server reads a body with it). */
export function parseMessage(line: Uint8Array): Outcome<unknown> {
  let text: string;
  try {
    text = decoder.decode(line);
  } catch {
    return fail('invalid_arguments', 'not_utf8', 'the line is not valid UTF-8');
  }
  try {
    return ok(JSON.parse(text) as unknown);
  } catch {
    // SyntaxError, or RangeError when nesting exhausts the parser's stack.
    return fail('invalid_arguments', 'not_json', 'the line is not JSON');
  }
}

/** Why a message with a `method` is not a valid request or notification, if it is not. */
function envelopeProblem(message: Record<string, unknown>): string | undefined {
  if (message['jsonrpc'] !== '2.0') return 'jsonrpc must be "2.0"';
  if (typeof message['method'] !== 'string') return 'method must be a string';
  if ('id' in message && !isId(message['id'])) return 'id must be a string or an integer (MCP forbids null)';
  if ('params' in message && !isObject(message['params'])) return 'params must be an object';
  const extra = Object.keys(message).find((key) => !ENVELOPE.has(key));
  return extra === undefined ? undefined : `unexpected member ${shown(extra)}`;
}

/**
 * Answers one line (without its `\n`).
 *
 * @returns -32700 for bytes that are not UTF-8 JSON; -32600 for JSON that is
 *   not a request (id null when no usable id); a handler's answer, or -32601;
 *   a note for a response or an unknown notification (neither is answered).
 * @example
 * answerLine(bytes('nope'), methods); // { answer: { jsonrpc: '2.0', id: null, error: { code: -32700, … } } }
 */
export function answerLine(line: Uint8Array, methods: Methods, session: ServeSession = {}): LineAnswer {
  const parsed = parseMessage(line);
  if (!parsed.ok) return error(null, RPC_ERROR.parse, `Parse error: ${parsed.message}`);
  return answerMessage(parsed.value, methods, session);
}

/** Answers one parsed message as `answerLine` answers its line (everything after the parse). */
export function answerMessage(message: unknown, methods: Methods, session: ServeSession = {}): LineAnswer {
  if (Array.isArray(message)) return error(null, RPC_ERROR.invalidRequest, 'Invalid Request: batches are not part of MCP 2025-06-18');
  if (!isObject(message)) return error(null, RPC_ERROR.invalidRequest, 'Invalid Request: not a JSON object');
  const id = isId(message['id']) ? message['id'] : null;
  if (!('method' in message)) {
    if ('result' in message || 'error' in message) return { note: `ignored a response (id ${shown(message['id'])}): this server sends no requests` };
    return error(id, RPC_ERROR.invalidRequest, 'Invalid Request: no method');
  }
  const problem = envelopeProblem(message);
  if (problem) return error(id, RPC_ERROR.invalidRequest, `Invalid Request: ${problem}`);
  const method = message['method'] as string;
  const params = (message['params'] ?? {}) as Record<string, unknown>;
  if (!('id' in message)) {
    return methods.notifications.has(method) ? {} : { note: `ignored notification ${shown(method)}` };
  }
  const handler = Object.hasOwn(methods.requests, method) ? methods.requests[method] : undefined;
  if (!handler) return error(id, RPC_ERROR.methodNotFound, `Method not found: ${shown(method)}`);
  let answered: MethodAnswer;
  try {
    answered = handler(params, session);
  } catch (thrown) {
    return internal(id, thrown);
  }
  return shaped(id, answered);
}

/** A handler bug: still one answer for the line, never a crash of the session. */
function internal(id: RpcId | null, thrown: unknown): LineAnswer {
  const text = (thrown instanceof Error ? thrown.message : String(thrown)).split('\n')[0]!.slice(0, 80);
  return error(id, RPC_ERROR.internal, `Internal error: ${text}`);
}

/** A handler's answer as the line's: a deferred one once it is known (a rejection is an internal error). */
function shaped(id: RpcId | null, answered: MethodAnswer): LineAnswer {
  if ('deferred' in answered) return { deferred: answered.deferred.then((later) => shaped(id, later), (thrown: unknown) => internal(id, thrown)) };
  if ('serialized' in answered) return { answer: { jsonrpc: '2.0', id, result: answered.serialized.result }, serialized: answered.serialized };
  return { answer: { jsonrpc: '2.0', id, ...answered } };
}

/** The head of an answer line up to its result: the only part written per request when the result was serialized ahead. */
const resultHead = (id: unknown): string => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;

/**
 * One answer as its line (UTF-8, `\n`-terminated): byte for byte
 * `JSON.stringify(answer) + "\n"`. A result serialized ahead is copied in
 * after this request's id instead of being stringified and encoded again.
 */
export function answerBytes(answered: { readonly answer: Record<string, unknown>; readonly serialized?: SerializedResult | undefined }): Uint8Array {
  if (!answered.serialized) return encoder.encode(`${JSON.stringify(answered.answer)}\n`);
  const head = encoder.encode(resultHead(answered.answer['id']));
  const body = answered.serialized.bytes;
  const line = new Uint8Array(head.byteLength + body.byteLength + 2);
  line.set(head);
  line.set(body, head.byteLength);
  line[line.byteLength - 2] = 0x7d; // }
  line[line.byteLength - 1] = 0x0a; // \n
  return line;
}
