import { ok, type Outcome } from '../../contract/index.ts';
import { type Correlator, InitializeResult, refuse } from '../wire/index.ts';
import { excerpt } from './call.ts';
import { expectResult } from './handshake.ts';
import { HOST_CLIENT_INFO } from './host-info.ts';
import { listPages, type Pages } from './list-pages.ts';
import { HOST_OFFERED_VERSION, READ_VERSIONS, versionProfile, type VersionProfile } from './versions.ts';

/** What the host handshake established. */
export interface HostHandshake {
  readonly initialize: InitializeResult;
  readonly profile: VersionProfile;
  /** The first listing, as far as it went (never a failure: a failed listing fails the handshake). */
  readonly pages: Omit<Pages, 'failure'>;
}

export interface HostHandshakeOptions {
  readonly timeoutMs: number;
  readonly maxPages: number;
  readonly maxEntries: number;
  readonly signal?: AbortSignal;
  /** Gets the answered revision before anything else is sent (the transport's `setProtocolVersion`). */
  readonly negotiated?: (version: string) => void;
}

/**
 * The host profile's handshake: `initialize` offering 2025-11-25, any answer
 * in the version table read by its profile (`versionProfile`), the tools
 * capability required, the revision handed to `negotiated`, `notifications/initialized`, then tools/list followed
 * through its pages within bounds (`listPages`). A revision outside the
 * table is protocol/version_mismatch ("If the client does not support the
 * version in the server's response, it SHOULD disconnect").
 */
export async function hostHandshake(correlator: Correlator<unknown>, options: HostHandshakeOptions): Promise<Outcome<HostHandshake>> {
  const params = { protocolVersion: HOST_OFFERED_VERSION, capabilities: {}, clientInfo: HOST_CLIENT_INFO };
  const initialize = await expectResult(correlator, 'initialize', params, InitializeResult, options.timeoutMs, options.signal);
  if (!initialize.ok) return initialize;
  const answered = initialize.value.protocolVersion;
  const profile = versionProfile(answered);
  if (!profile) {
    return refuse('protocol', 'version_mismatch', `server answered protocol ${excerpt(JSON.stringify(answered), 100)}; this client reads ${READ_VERSIONS.join(', ')}`);
  }
  if (!initialize.value.capabilities.tools) return refuse('protocol', 'unexpected_tools', 'server does not declare the tools capability');
  options.negotiated?.(answered);
  const initialized = correlator.notify('notifications/initialized', {});
  if (!initialized.ok) return initialized;
  const { failure, ...pages } = await listPages(correlator, { maxPages: options.maxPages, maxEntries: options.maxEntries, timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
  if (failure) return failure;
  return ok({ initialize: initialize.value, profile, pages });
}
