/**
 * MCP 2026-07-28 (the stateless revision) beside 2025-06-18, request by
 * request. A request whose `params._meta` names a protocol version
 * (`io.modelcontextprotocol/protocolVersion`) is a modern request: it needs no
 * `initialize`, is judged by its own envelope alone (the engine stays pure and
 * stateless), and its result carries `resultType` (and, on lists and
 * `server/discover`, the `ttlMs`/`cacheScope` cache hints the revision makes
 * required). Every other request is served exactly as before, so a 2025-06-18
 * session's bytes do not change. Shapes follow the SDK v2 (2.4.0) encoder:
 * `resultType: "complete"`, `ttlMs: 0`, `cacheScope: "private"`, the server's
 * identity in `_meta["io.modelcontextprotocol/serverInfo"]`, and -32022 with
 * `data: { supported, requested }` for a version it does not speak.
 */
import { isObject, RPC_ERROR, shown, type MethodAnswer, type MethodHandler } from './serve-rpc.ts';

/** The one modern revision this server speaks. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The reserved `_meta` keys of the 2026-07-28 per-request envelope. */
export const ENVELOPE_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** 2026-07-28's code for "the request's protocol version is not one I speak". */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** Whether a request claims the modern era: its `_meta` names a protocol version (of any value). */
export function claimsModernEra(params: Readonly<Record<string, unknown>>): boolean {
  const meta = params['_meta'];
  return isObject(meta) && Object.hasOwn(meta, ENVELOPE_KEYS.protocolVersion);
}

const invalidEnvelope = (problem: string): MethodAnswer => ({
  error: { code: RPC_ERROR.invalidParams, message: `Invalid _meta envelope: ${problem}` },
});

/**
 * Why a modern request cannot be served, as its error answer; undefined when
 * its envelope is usable. A version other than 2026-07-28 gets -32022 naming
 * what is supported (the client may retry with it); a missing or malformed
 * required key gets -32602, as the SDK v2 server answers.
 */
export function envelopeRefusal(params: Readonly<Record<string, unknown>>): MethodAnswer | undefined {
  const meta = params['_meta'] as Record<string, unknown>;
  const version = meta[ENVELOPE_KEYS.protocolVersion];
  if (typeof version !== 'string') return invalidEnvelope(`${ENVELOPE_KEYS.protocolVersion} must be a string`);
  if (version !== MODERN_PROTOCOL_VERSION) {
    return {
      error: {
        code: UNSUPPORTED_PROTOCOL_VERSION,
        message: `Unsupported protocol version: ${shown(version)}`,
        data: { supported: [MODERN_PROTOCOL_VERSION], requested: version },
      },
    };
  }
  if (!isObject(meta[ENVELOPE_KEYS.clientCapabilities])) return invalidEnvelope(`${ENVELOPE_KEYS.clientCapabilities} must be an object`);
  const info = meta[ENVELOPE_KEYS.clientInfo];
  if (info !== undefined && !(isObject(info) && typeof info['name'] === 'string' && typeof info['version'] === 'string')) {
    return invalidEnvelope(`${ENVELOPE_KEYS.clientInfo} needs name and version (strings)`);
  }
  return undefined;
}

/** Which results get the cache hints: the revision's `CacheableResult`s this server answers. */
const CACHEABLE = new Set(['server/discover', 'tools/list']);

/**
 * A modern answer from the handler's plain one: `resultType: "complete"` on
 * every result, cache hints on cacheable ones, the server's identity in
 * `_meta` (SHOULD). Errors pass through unchanged.
 */
export function modernAnswer(method: string, answered: MethodAnswer, serverInfo: Readonly<Record<string, unknown>>): MethodAnswer {
  // Errors pass through; nothing of the modern era defers (count_words answers at once there).
  if ('error' in answered || 'deferred' in answered) return answered;
  const result = 'serialized' in answered ? answered.serialized.result : answered.result;
  const meta = isObject(result['_meta']) ? result['_meta'] : {};
  return {
    result: {
      ...result,
      resultType: 'complete',
      ...(CACHEABLE.has(method) ? { ttlMs: 0, cacheScope: 'private' } : {}),
      _meta: { ...meta, [ENVELOPE_KEYS.serverInfo]: serverInfo },
    },
  };
}

/**
 * The requests of a server that speaks both eras: each method answers a
 * legacy request with its legacy handler and a modern one (envelope checked
 * first) with its modern handler; a method one era lacks is not found in
 * that era, answered as the engine answers any unknown method. So
 * `server/discover` without the envelope is -32601 (as a dual-era SDK v2
 * server answers) and `initialize` or `ping` with it is -32601 too.
 */
export function dualEra(
  legacy: Readonly<Record<string, MethodHandler>>,
  modern: Readonly<Record<string, MethodHandler>>,
  serverInfo: Readonly<Record<string, unknown>>,
): Record<string, MethodHandler> {
  const notFound = (method: string): MethodAnswer => ({ error: { code: RPC_ERROR.methodNotFound, message: `Method not found: ${shown(method)}` } });
  const requests: Record<string, MethodHandler> = {};
  for (const method of new Set([...Object.keys(legacy), ...Object.keys(modern)])) {
    const legacyHandler = Object.hasOwn(legacy, method) ? legacy[method] : undefined;
    const modernHandler = Object.hasOwn(modern, method) ? modern[method] : undefined;
    requests[method] = (params, session) => {
      if (!claimsModernEra(params)) return legacyHandler ? legacyHandler(params, session) : notFound(method);
      const refusal = envelopeRefusal(params);
      if (refusal) return refusal;
      return modernHandler ? modernAnswer(method, modernHandler(params, { version: MODERN_PROTOCOL_VERSION }), serverInfo) : notFound(method);
    };
  }
  return requests;
}
