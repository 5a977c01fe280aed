/**
 * An HTTP server as a user names it — a `.mcp.json` `{ "type": "http", url,
 * headers }` entry, or `caplab probe --url URL --header-env NAME=VAR` —
 * checked before anything connects. The rules (caplab host rules):
 *
 * - the URL is `http:` or `https:`, with no `user:password@` (the URL is
 *   recorded as connected to: credentials never belong in it);
 * - a header name is an HTTP token, given once (in any case), and none of
 *   the headers the transport sets itself (`RESERVED_HEADERS`);
 * - a header value holds no CR, LF or NUL;
 * - headers go over plain `http:` only to a loopback host (`localhost`,
 *   `127.0.0.0/8`, `[::1]`): anywhere else they would cross the network
 *   unencrypted;
 * - in a config file, `Authorization` is wholly `${VAR}` or `Bearer ${VAR}`
 *   (no `:-default`), so the credential comes from the environment, never
 *   the file (`checkCredentialReference`).
 *
 * Header values are secrets: a caller adds each to its redactor, as it does
 * the environment values it places.
 */
import { fail, ok, type Failure, type Outcome } from '../../contract/index.ts';
import { OWN_HEADERS } from '../wire/index.ts';

/** A server to reach over Streamable HTTP: where, and the headers to send with every request. */
export interface HttpTarget {
  /** The URL as it will be connected to (`new URL(…).href`): what a binding's endpoint records. */
  readonly url: string;
  /** Header name → value, values expanded: secrets, never recorded, redacted wherever caplab writes. */
  readonly headers: Readonly<Record<string, string>>;
  /** The header names as given, sorted: all a record says of the headers. */
  readonly headerNames: readonly string[];
}

/** An HTTP field name (RFC 9110 §5.6.2 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers the HTTP transport sets itself (lowercase; the transport's `OWN_HEADERS`): a user's would change what the protocol sends. */
export const RESERVED_HEADERS: readonly string[] = [...OWN_HEADERS].sort();

/** The only forms a config file's `Authorization` value may take: a whole variable, optionally after `Bearer `. */
const CREDENTIAL_REFERENCE = /^(?:Bearer )?\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/**
 * Whether a URL's host (`URL.hostname`) is loopback: `localhost`, an IPv4
 * address in 127.0.0.0/8 (the URL parser writes `127.1` as `127.0.0.1`), or `[::1]`.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** A URL caplab can POST to: parsed, `http:` or `https:`, without credentials. */
export function checkHttpUrl(text: string): Outcome<URL> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail('invalid_arguments', 'bad_url', `${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return fail('invalid_arguments', 'bad_url', `${url.protocol} URL ${JSON.stringify(text)}: caplab speaks Streamable HTTP over http: and https: only`);
  }
  if (url.username !== '' || url.password !== '') {
    return fail('invalid_arguments', 'literal_credential', `the URL holds a user or password; the URL is recorded, so credentials come from the environment in a header instead`);
  }
  return ok(url);
}

/** Why a header name cannot be sent, or undefined. */
function badHeaderName(name: string): string | undefined {
  if (!TOKEN.test(name)) return `header name ${JSON.stringify(name)} is not an HTTP token`;
  if (RESERVED_HEADERS.includes(name.toLowerCase())) return `header ${name} is set by the HTTP transport itself (reserved: ${RESERVED_HEADERS.join(', ')})`;
  return undefined;
}

/**
 * The target `url` and `headers` (values already expanded) name, or why it
 * cannot be used (see the rules above). A failure never quotes a header value.
 *
 * @example httpTarget('https://mcp.example.com/mcp', { Authorization: 'Bearer t0k' }) // ok({ url: 'https://mcp.example.com/mcp', headers: {...}, headerNames: ['Authorization'] })
 */
export function httpTarget(url: string, headers: Readonly<Record<string, string>>): Outcome<HttpTarget> {
  const parsed = checkHttpUrl(url);
  if (!parsed.ok) return parsed;
  const seen = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    const bad = badHeaderName(name);
    if (bad) return fail('invalid_arguments', 'bad_header', bad);
    const other = seen.get(name.toLowerCase());
    if (other !== undefined) return fail('invalid_arguments', 'bad_header', `headers ${other} and ${name} are one header (names are case-insensitive); give it once`);
    seen.set(name.toLowerCase(), name);
    if (/[\r\n\0]/.test(value)) return fail('invalid_arguments', 'bad_header', `header ${name}: its value holds a CR, LF or NUL`);
  }
  const headerNames = Object.keys(headers).sort();
  const { protocol, hostname } = parsed.value;
  if (headerNames.length > 0 && protocol === 'http:' && !isLoopbackHost(hostname)) {
    return fail('invalid_arguments', 'plaintext_headers', `headers ${headerNames.join(', ')} would cross the network unencrypted to ${hostname} over http:; use https:, or a loopback host (localhost, 127.0.0.0/8, [::1])`);
  }
  return ok({ url: parsed.value.href, headers: { ...headers }, headerNames });
}

/**
 * A config file's header as written (before expansion): `Authorization`
 * (in any case) must be wholly `${VAR}` or `Bearer ${VAR}`, so the
 * credential is the environment's and the file holds none; any other header
 * is not checked here. Undefined when it may be used.
 */
export function checkCredentialReference(name: string, raw: string): Failure | undefined {
  if (name.toLowerCase() !== 'authorization' || CREDENTIAL_REFERENCE.test(raw)) return undefined;
  return fail('invalid_arguments', 'literal_credential', `header ${name} must be "\${VAR}" or "Bearer \${VAR}" (no default): credentials come from the environment, never the file`);
}
