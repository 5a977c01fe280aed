/**
 * Probe's 2026-07-28 era (the stateless revision, stdio only): the `_meta`
 * envelope it stamps on every request, what it holds every result to, and
 * the profile a modern session is checked with. Shapes follow the spec as the
 * SDK v2 (2.4.0) speaks it: the envelope's `io.modelcontextprotocol/*` keys,
 * `resultType` on every result, `ttlMs`/`cacheScope` on cacheable ones, the
 * server's identity in `_meta["io.modelcontextprotocol/serverInfo"]`.
 */
import type { Failure } from '../../contract/index.ts';
import { CLIENT_INFO, type VersionProfile } from '../client/index.ts';
import { refuse } from '../wire/index.ts';
import { excerpt } from './probe-finding.ts';

import { MODERN_VERSION } from './probe-protocols.ts';

export { AUTO_LEGACY_VERSION, MODERN_VERSION } from './probe-protocols.ts';
export type { ProtocolChoice } from './probe-protocols.ts';

const KEY = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** 2026-07-28's error for "not a version I speak"; its data lists the ones it does. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The request's params with the envelope in its `_meta` (probe declares no capabilities). */
export function withEnvelope(params: Record<string, unknown>): Record<string, unknown> {
  const meta = isObject(params['_meta']) ? params['_meta'] : {};
  return { ...params, _meta: { ...meta, [KEY.protocolVersion]: MODERN_VERSION, [KEY.clientCapabilities]: {}, [KEY.clientInfo]: CLIENT_INFO } };
}

/** The revision's cacheable results probe asks for. */
const CACHEABLE = new Set(['server/discover', 'tools/list']);

/**
 * What a modern result breaks, if anything: no `resultType` (every result
 * MUST carry it), one other than `complete` (probe asks for no input and no
 * task, so `input_required` or `task` is unrequested: the outcome is
 * unknown), or a cacheable result without valid `ttlMs`/`cacheScope` (MUST).
 */
export function modernResultProblem(method: string, result: Readonly<Record<string, unknown>>): Failure | undefined {
  const type = result['resultType'];
  if (typeof type !== 'string') return refuse('protocol', 'result_type', `${method} result has no resultType string (2026-07-28: every result MUST carry one)`, [`resultType ${excerpt(type ?? 'absent')}`]);
  if (type !== 'complete') return refuse('protocol', 'unrequested_result_type', `${method} answered resultType ${excerpt(type)}, which probe never asked for; outcome unknown`);
  if (!CACHEABLE.has(method)) return undefined;
  const ttl = result['ttlMs'];
  const scope = result['cacheScope'];
  if (Number.isSafeInteger(ttl) && (ttl as number) >= 0 && (scope === 'public' || scope === 'private')) return undefined;
  return refuse('protocol', 'cache_hints', `${method} result lacks valid cache hints (2026-07-28: ttlMs, a whole number ≥ 0, and cacheScope "public" or "private" MUST be present)`, [
    `ttlMs ${excerpt(ttl ?? 'absent')}, cacheScope ${excerpt(scope ?? 'absent')}`,
  ]);
}

/** The server's identity from a modern result's `_meta`, when it gives one (a SHOULD). */
export function modernServerInfo(result: Readonly<Record<string, unknown>>): { name: string; version: string } | undefined {
  const meta = result['_meta'];
  const info = isObject(meta) ? meta[KEY.serverInfo] : undefined;
  return isObject(info) && typeof info['name'] === 'string' && typeof info['version'] === 'string' ? (info as { name: string; version: string }) : undefined;
}

/** The versions a -32022 error lists as supported, when its data lists them. */
export function supportedOf(data: unknown): readonly string[] | undefined {
  const supported = isObject(data) ? data['supported'] : undefined;
  return Array.isArray(supported) && supported.every((item) => typeof item === 'string') ? supported : undefined;
}

/** How a modern session is checked: 2025-11-25's tool rules, without `ping` (gone in 2026-07-28). */
export const MODERN_PROFILE: VersionProfile = {
  version: MODERN_VERSION,
  structured: true,
  contentTypes: ['text', 'image', 'audio', 'resource_link', 'resource'],
  nameRule: 'spec SHOULD',
  defaultDialect: '2020-12',
  notApplicable: ['initialize and ping (not in 2026-07-28: server/discover opens and closes the session)'],
  notChecked: ['input_required results (multi round-trip)', 'subscriptions/listen', 'extensions (io.modelcontextprotocol/tasks)', 'icons'],
};
