/**
 * How a probe session opens, by `--protocol`: `initialize` offering one
 * legacy revision (today's default, 2025-06-18), `server/discover` with the
 * 2026-07-28 envelope (the modern era pinned), or `auto` on stdio, in order:
 * discover with the envelope; its `supportedVersions` naming 2026-07-28 →
 * modern; -32022 listing nothing caplab speaks → `protocol/version_mismatch`;
 * another error or silence past the request deadline → `initialize` on the
 * same connection (a -32022 to it naming 2026-07-28: discover once more); the
 * server gone after discover → one restart for `initialize` (probe.ts). The
 * negotiation names the signal it went by.
 */
import * as v from 'valibot';
import type { Failure } from '../../contract/index.ts';
import { CLIENT_INFO, READ_VERSIONS } from '../client/index.ts';
import { describeIssues, InitializeResult, refuse, type Correlator, type Reply, type ServerInfo } from '../wire/index.ts';
import { AUTO_LEGACY_VERSION, MODERN_VERSION, modernResultProblem, modernServerInfo, supportedOf, UNSUPPORTED_PROTOCOL_VERSION, type ProtocolChoice } from './probe-era.ts';
import { excerpt, finding, type ProbeFinding } from './probe-finding.ts';

/** What the opening established, in either era. */
export interface Opened {
  readonly era: 'modern' | 'legacy';
  readonly protocolVersion: string;
  readonly serverInfo?: ServerInfo;
  readonly capabilities: { readonly tools?: { readonly listChanged?: boolean | undefined } | undefined };
  readonly instructions?: string;
  /** Findings of the opening itself (a modern server that does not name itself). */
  readonly findings: readonly ProbeFinding[];
}

/** How `auto` or a pinned 2026-07-28 chose its era, and what it went by. */
export interface Negotiation {
  readonly mode: ProtocolChoice;
  readonly era: 'modern' | 'legacy';
  readonly signal: string;
}

export type Opening =
  | { readonly ok: true; readonly opened: Opened; readonly negotiation?: Negotiation }
  | { readonly ok: false; readonly failure?: Failure; readonly refused?: ProbeFinding; readonly negotiation?: Negotiation; readonly restart?: string };

/**
 * The session's era switch: the stamp and the result policy read it, so one
 * connection can fall back to initialize. While `negotiating`, a discover
 * answer is the negotiation's to judge (a legacy server's odd answer to a
 * method it does not know is a signal, not a violation).
 */
export interface EraSwitch {
  modern: boolean;
  negotiating: boolean;
}

interface Opener {
  readonly session: Correlator<unknown>;
  readonly era: EraSwitch;
  readonly timeouts: { readonly startupMs: number; readonly requestMs: number };
}

const rpcError = (method: string, error: { code: number; message: string }): Failure =>
  refuse('protocol', 'jsonrpc_error', `${method} refused with JSON-RPC error ${error.code}: ${error.message}`);

/** `initialize` offering `offered`, read as the general profile reads it (any revision of READ_VERSIONS). */
async function initialize(opener: Opener, offered: string, timeoutMs: number): Promise<{ reply: Reply; opening?: undefined } | { opening: Opening }> {
  opener.era.modern = false;
  const sent = await opener.session.request('initialize', { protocolVersion: offered, capabilities: {}, clientInfo: CLIENT_INFO }, { timeoutMs }).reply;
  if (!sent.ok) return { opening: { ok: false, failure: sent } };
  return { reply: sent.value };
}

/** An initialize answer as an opening (what `expectResult` checks, then the revision). */
function legacyOpening(reply: Reply, negotiation?: Negotiation): Opening {
  const extra = negotiation ? { negotiation } : {};
  if ('error' in reply.answer) return { ok: false, failure: rpcError('initialize', reply.answer.error), ...extra };
  const parsed = v.safeParse(InitializeResult, reply.answer.result);
  if (!parsed.success) return { ok: false, failure: refuse('protocol', 'malformed_result', 'initialize result is not MCP 2025-06-18', describeIssues(parsed.issues)), ...extra };
  const { serverInfo, protocolVersion, capabilities, instructions } = parsed.output;
  return { ok: true, opened: { era: 'legacy', protocolVersion, serverInfo, capabilities, ...(instructions !== undefined ? { instructions } : {}), findings: [] }, ...extra };
}

/** `initialize` offering one legacy revision: the opening probe had before it knew 2026-07-28. */
export async function openLegacy(opener: Opener, offered: string, negotiation?: Negotiation): Promise<Opening> {
  const sent = await initialize(opener, offered, opener.timeouts.startupMs);
  return sent.opening ?? legacyOpening(sent.reply, negotiation);
}

/** A discover result as a modern opening: it must list 2026-07-28 (the result policy already held it to the revision's MUSTs). */
function modernOpening(result: Readonly<Record<string, unknown>>, negotiation: Negotiation): Opening {
  const capabilities = result['capabilities'];
  if (capabilities === null || typeof capabilities !== 'object' || Array.isArray(capabilities)) {
    return { ok: false, failure: refuse('protocol', 'malformed_result', 'server/discover result has no capabilities object', [`capabilities ${excerpt(capabilities ?? 'absent')}`]), negotiation };
  }
  const serverInfo = modernServerInfo(result);
  const findings = serverInfo ? [] : [finding('protocol', 'no_server_info', 'spec SHOULD', 'server/discover result does not name the server (_meta io.modelcontextprotocol/serverInfo)', { evidence: `_meta ${excerpt(result['_meta'] ?? 'absent')}` })];
  const instructions = typeof result['instructions'] === 'string' ? result['instructions'] : undefined;
  const opened: Opened = { era: 'modern', protocolVersion: MODERN_VERSION, capabilities: capabilities as Opened['capabilities'], ...(serverInfo ? { serverInfo } : {}), ...(instructions !== undefined ? { instructions } : {}), findings };
  return { ok: true, opened, negotiation };
}

const mismatch = (signal: string, negotiation: Negotiation): Opening => {
  const message = negotiation.mode === 'auto' ? `the server speaks no revision probe reads (it reads ${[MODERN_VERSION, ...READ_VERSIONS].join(', ')})` : `the server does not offer ${MODERN_VERSION}, which --protocol pins`;
  return { ok: false, refused: finding('protocol', 'version_mismatch', 'caplab host rule', message, { evidence: signal }), negotiation };
};

/** What a discover answer says, as `auto` reads it: modern, a mismatch, or a reason to initialize instead. */
type DiscoverVerdict = { readonly kind: 'modern' | 'legacy' | 'mismatch' | 'restart' | 'failed'; readonly signal: string; readonly result?: Readonly<Record<string, unknown>>; readonly failure?: Failure };

async function discover(opener: Opener, timeoutMs: number): Promise<DiscoverVerdict> {
  opener.era.modern = true;
  opener.era.negotiating = true;
  const sent = await opener.session.request('server/discover', {}, { timeoutMs }).reply;
  opener.era.negotiating = false;
  if (!sent.ok) {
    if (sent.kind === 'deadline') return { kind: 'legacy', signal: `no answer to server/discover within ${timeoutMs} ms` };
    // The server went away (not probe closing it on a signal): it may be one that exits on anything before initialize.
    if (sent.class === 'closed' && sent.kind !== 'session_closed') return { kind: 'restart', signal: `the server closed the connection after server/discover (${sent.kind})`, failure: sent };
    return { kind: 'failed', signal: `server/discover: ${sent.class}/${sent.kind}`, failure: sent };
  }
  const { answer } = sent.value;
  if ('result' in answer) {
    const versions = supportedOf({ supported: answer.result['supportedVersions'] });
    if (versions?.includes(MODERN_VERSION)) {
      // It claims the revision: from here its answer is held to it, as every later one is.
      const broken = modernResultProblem('server/discover', answer.result);
      const signal = `server/discover answered supportedVersions ${excerpt(versions)}`;
      return broken ? { kind: 'failed', signal, failure: broken } : { kind: 'modern', signal, result: answer.result };
    }
    return { kind: 'legacy', signal: `server/discover answered supportedVersions ${excerpt(answer.result['supportedVersions'] ?? 'absent')}, without ${MODERN_VERSION}` };
  }
  const { code, message } = answer.error;
  const signal = `server/discover refused with ${code} (${excerpt(message, 60)})`;
  if (code !== UNSUPPORTED_PROTOCOL_VERSION) return { kind: 'legacy', signal };
  const supported = supportedOf(answer.error.data);
  if (supported === undefined) return { kind: 'legacy', signal: `${signal}, listing no supported versions` };
  const listed = `${signal}, supported ${excerpt(supported)}`;
  return supported.some((version) => READ_VERSIONS.includes(version)) ? { kind: 'legacy', signal: listed } : { kind: 'mismatch', signal: listed };
}

/** `--protocol 2026-07-28`: discover with the envelope, within the startup deadline; nothing else will do. */
export async function openModern(opener: Opener): Promise<Opening> {
  const verdict = await discover(opener, opener.timeouts.startupMs);
  const negotiation: Negotiation = { mode: MODERN_VERSION, era: 'modern', signal: verdict.signal };
  if (verdict.kind === 'modern') return modernOpening(verdict.result!, negotiation);
  if (verdict.failure) return { ok: false, failure: verdict.failure, negotiation };
  return mismatch(verdict.signal, negotiation);
}

/** `--protocol auto` on stdio (the order is the module's doc). */
export async function openAuto(opener: Opener): Promise<Opening> {
  const verdict = await discover(opener, opener.timeouts.requestMs);
  const as = (era: 'modern' | 'legacy', signal = verdict.signal): Negotiation => ({ mode: 'auto', era, signal });
  switch (verdict.kind) {
    case 'modern':
      return modernOpening(verdict.result!, as('modern'));
    case 'mismatch':
      return mismatch(verdict.signal, as('modern'));
    case 'restart':
      return { ok: false, restart: verdict.signal, negotiation: as('legacy') };
    case 'failed':
      return { ok: false, failure: verdict.failure!, negotiation: as('modern') };
    case 'legacy':
      break;
  }
  const sent = await initialize(opener, AUTO_LEGACY_VERSION, opener.timeouts.startupMs);
  if (sent.opening) return { ...sent.opening, negotiation: as('legacy') };
  const { answer } = sent.reply;
  if ('error' in answer && answer.error.code === UNSUPPORTED_PROTOCOL_VERSION && supportedOf(answer.error.data)?.includes(MODERN_VERSION)) {
    // A modern-only server refusing initialize: back to discover, once.
    const again = await discover(opener, opener.timeouts.requestMs);
    const signal = `${verdict.signal}; initialize refused with -32022 naming ${MODERN_VERSION}; ${again.signal}`;
    if (again.kind === 'modern') return modernOpening(again.result!, as('modern', signal));
    return again.failure ? { ok: false, failure: again.failure, negotiation: as('modern', signal) } : mismatch(signal, as('modern', signal));
  }
  return legacyOpening(sent.reply, as('legacy'));
}
