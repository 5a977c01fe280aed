/**
 * The guards `caplab serve --http` puts before every request: where it may
 * come from (`Host`, `Origin`: DNS rebinding) and who may send it (a bearer
 * token). Pure: headers in, a verdict out.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** The host names that are this machine's loopback, however a client spells them. */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether a host name (no port) is loopback: `localhost`, `127.0.0.1` or `[::1]` (a bare `::1` as `--host` gives it). */
export function isLoopbackName(name: string): boolean {
  return LOOPBACK_NAMES.has(name.toLowerCase());
}

/** The host name of a `Host` header value (`name[:port]`, `[v6][:port]`), lower case; undefined when it is not one. */
export function hostName(header: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^\s:[\]/@]+)(?::\d{1,5})?$/i.exec(header);
  return match ? match[1]!.toLowerCase() : undefined;
}

/** What the guards let through beyond loopback: the origins `--allow-origin` named, exactly as `new URL(o).origin` spells them. */
export interface Allowed {
  readonly origins: ReadonlySet<string>;
  /** Their host names (no port), for the `Host` header. */
  readonly hostNames: ReadonlySet<string>;
}

/** Whether a value is an origin as `--allow-origin` takes it: `scheme://host[:port]`, nothing after it but an optional `/`. */
export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return url.origin !== 'null' && value.replace(/\/$/, '').toLowerCase() === url.origin.toLowerCase();
  } catch {
    return false;
  }
}

/** The `--allow-origin` values as the guards compare them (the CLI has refused any that is not an origin). */
export function allowedOrigins(values: readonly string[]): Allowed {
  const urls = values.map((value) => {
    if (!isOrigin(value)) throw new TypeError(`not an origin: ${JSON.stringify(value)}`);
    return new URL(value);
  });
  return { origins: new Set(urls.map((url) => url.origin)), hostNames: new Set(urls.map((url) => url.hostname.toLowerCase())) };
}

/**
 * Why a request's `Host` or `Origin` is refused (403), or undefined: `Host`
 * must name loopback (any port) or a host of an allowed origin; an `Origin`,
 * when present, must be a loopback origin (any port) or one allowed exactly.
 * A browser sends `Origin` on every cross-site POST, so a page elsewhere is refused.
 */
export function originProblem(host: string | null, origin: string | null, allowed: Allowed): string | undefined {
  const name = host === null ? undefined : hostName(host);
  if (name === undefined) return 'a Host header naming this server is required';
  if (!isLoopbackName(name) && !allowed.hostNames.has(name)) return `Host ${JSON.stringify(host)} is not loopback and not allowed (--allow-origin)`;
  if (origin === null) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  const loopback = url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackName(url.hostname);
  if (loopback || (url !== undefined && allowed.origins.has(url.origin))) return undefined;
  return `Origin ${JSON.stringify(origin.slice(0, 200))} is not loopback and not allowed (--allow-origin)`;
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * A bearer-token check: `Authorization: Bearer <token>` (scheme case-insensitive).
 * Both sides are compared as sha256 digests with `timingSafeEqual`: equal
 * lengths always, so neither a token's content nor its length shows in timing.
 */
export function bearerCheck(token: string): (authorization: string | null) => boolean {
  const expected = digest(token);
  return (authorization) => {
    const match = authorization === null ? null : /^bearer +(.*)$/is.exec(authorization);
    // Hashed either way, so a missing header costs what a wrong one does.
    const given = digest(match ? match[1]! : '');
    return timingSafeEqual(given, expected) && match !== null;
  };
}
