/**
 * `caplab serve --http`: a tools-only server's methods (the stdio server's,
 * `toolServerMethods` and `answerMessage`) framed by `Bun.serve` as MCP
 * Streamable HTTP (2025-06-18, or 2025-11-25 when offered: one task store
 * for every session), JSON answers only: no SSE stream, no GET.
 * Every request passes the guards first (`Host`/`Origin` 403, token 401),
 * then `/mcp` only (404), POST one message or DELETE a session (else 405).
 * Sessions idle past `httpSessionIdleMs` expire (http-sessions.ts).
 */
import type { Server } from 'bun';
import { LIMITS } from '../../contract/index.ts';
import { PROTOCOL_VERSION } from '../wire/index.ts';
import { allowedOrigins, bearerCheck, isLoopbackName, originProblem, type Allowed } from './http-guards.ts';
import { HttpSessions, type SessionHeaders } from './http-sessions.ts';
import { answerBytes, answerMessage, isObject, parseMessage, RPC_ERROR, type LineAnswer, type Methods } from './serve-rpc.ts';
import { ServeTasks } from './serve-tasks.ts';
import { toolServerMethods, type ToolServer } from './tool-server.ts';

/** How `serve --http` listens and whom it answers. */
export interface HttpServeOptions {
  /** The address to bind (`127.0.0.1` unless the user named another). */
  readonly host: string;
  /** The port; 0 lets the system choose one (the `listening` line names it). */
  readonly port: number;
  /** The bearer token every request must carry, when one was given (`--token-env`); never printed. */
  readonly token?: string | undefined;
  /** Origins beyond loopback a request may come from (`--allow-origin`), each `scheme://host[:port]`. */
  readonly allowOrigins: readonly string[];
  /** Stop when stdin ends (a parent that spawned this server and keeps its stdin open while it wants it). */
  readonly exitOnStdinEof: boolean;
}

/** What `serve --http` talks through: one `listening` line on stdout, logs on stderr, stdin only for `exitOnStdinEof`. */
export interface HttpServeIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly stdin?: AsyncIterable<unknown>;
  /** Aborted on SIGINT/SIGTERM (the reason names the signal): the server stops cleanly. */
  readonly stop?: AbortSignal;
  /** Aborted on a second SIGINT/SIGTERM (the reason names it): a stop under way ends its grace at once, cutting requests still in flight. */
  readonly force?: AbortSignal;
  /** The clock sessions are timed by (milliseconds; `Date.now` unless a test drives time). */
  readonly now?: () => number;
}

/** How `serve --http` ended: 0 stopped (a signal or stdin EOF; the CLI ranks a signal), 3 it could not listen. */
export const HTTP_SERVE_EXIT = { ok: 0, listen: 3 } as const;

/** The bound on a request body, as `readBounded` reads it (Bun's own, 128 MiB, is never reached: it would answer 413 without a word). */
const BODY_LIMIT = LIMITS.httpBodyBytes;
/** How long a stop waits for requests in flight (a client still sending its body) before their sockets are closed. */
const STOP_GRACE_MS = 5_000;
const JSON_TYPE = { 'content-type': 'application/json' } as const;

interface Context {
  readonly methods: Methods;
  readonly sessions: HttpSessions;
  readonly allowed: Allowed;
  readonly authorized: ((authorization: string | null) => boolean) | undefined;
  readonly log: (text: string) => void;
}

/** An HTTP refusal: its status, and an id-less JSON-RPC error saying why (a client may show it). */
function refusal(status: number, message: string, headers: Record<string, string> = {}, code: number = RPC_ERROR.invalidRequest): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message } }), { status, headers: { ...JSON_TYPE, ...headers } });
}

/** The media type of a `Content-Type` value, without parameters (`; charset=utf-8`), lower case. */
const mediaType = (value: string | null): string | undefined => value?.split(';')[0]!.trim().toLowerCase();

/** Whether an `Accept` value lists both types a Streamable HTTP client MUST accept on a POST (their parameters, `q` too, not weighed). */
function acceptsBoth(accept: string | null): boolean {
  const types = new Set((accept ?? '').split(',').map((range) => mediaType(range)));
  return types.has('application/json') && types.has('text/event-stream');
}

const sessionHeaders = (request: Request): SessionHeaders => ({
  sessionId: request.headers.get('mcp-session-id'),
  version: request.headers.get('mcp-protocol-version'),
});

/**
 * The body, read chunk by chunk and never past `limit`: undefined as soon as
 * it is longer (by `Content-Length`, before anything is read, or as read).
 */
async function readBounded(request: Request, limit: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) return undefined;
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    total += read.value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks, total);
}

/**
 * One answered message as HTTP: a request's answer as JSON (200), or 400 when
 * the message was no valid request (-32700, -32600); a notification or a
 * response 202 with no body (a note for one it ignored goes to stderr).
 */
function respond(answered: LineAnswer, ctx: Context, headers: Record<string, string> = {}): Response {
  if (answered.answer) {
    const error = answered.answer['error'] as { code: number; message: string } | undefined;
    if (error && (error.code === RPC_ERROR.parse || error.code === RPC_ERROR.invalidRequest)) {
      const { id } = answered.answer;
      return new Response(JSON.stringify({ jsonrpc: '2.0', ...(id === null ? {} : { id }), error }), { status: 400, headers: JSON_TYPE });
    }
    // answerBytes is the stdio line: the same bytes without its `\n`.
    return new Response(answerBytes(answered).subarray(0, -1), { status: 200, headers: { ...JSON_TYPE, ...headers } });
  }
  if (answered.note) ctx.log(`POST: ${answered.note}`);
  return new Response(null, { status: 202 });
}

/** An initialize: answered outside any session; a successful answer opens one and names it in `Mcp-Session-Id`. */
function initialize(message: Record<string, unknown>, headers: SessionHeaders, ctx: Context): Response {
  const refused = ctx.sessions.refuseOpen(headers);
  if (refused) return refusal(refused.status, refused.message);
  const answered = answerMessage(message, ctx.methods);
  const result = answered.answer?.['result'];
  if (!isObject(result)) return respond(answered, ctx);
  return respond(answered, ctx, { 'mcp-session-id': ctx.sessions.open(String(result['protocolVersion'])) });
}

/** POST /mcp: one JSON-RPC message (no batch), `application/json`, at most `httpBodyBytes`, from a client that accepts JSON and SSE answers. */
async function post(request: Request, ctx: Context): Promise<Response> {
  if (mediaType(request.headers.get('content-type')) !== 'application/json') return refusal(415, 'Content-Type must be application/json');
  // The spec's client MUST list both (the SDK's server answers 406 too), even though this server answers JSON only.
  if (!acceptsBoth(request.headers.get('accept'))) return refusal(406, 'Not Acceptable: Accept must list both application/json and text/event-stream');
  const body = await readBounded(request, BODY_LIMIT);
  // Unread bytes may follow: the connection is closed, not reused.
  if (!body) return refusal(413, `a body over ${BODY_LIMIT} bytes (httpBodyBytes) is not read`, { connection: 'close' });
  const parsed = parseMessage(body);
  if (!parsed.ok) return refusal(400, `Parse error: ${parsed.message}`, {}, RPC_ERROR.parse);
  const message = parsed.value;
  if (Array.isArray(message)) return refusal(400, 'Invalid Request: batches are not part of MCP 2025-06-18');
  if (!isObject(message)) return refusal(400, 'Invalid Request: not a JSON object');
  const headers = sessionHeaders(request);
  if (message['method'] === 'initialize' && 'id' in message) return initialize(message, headers, ctx);
  const refused = ctx.sessions.refuse(headers);
  if (refused) return refusal(refused.status, refused.message);
  // The session's revision is the one its MCP-Protocol-Version names (refuse checked it is the negotiated one).
  const answered = answerMessage(message, ctx.methods, { version: headers.version ?? undefined });
  // A deferred answer (tasks/result waiting on its task) holds this POST open until it is known.
  return respond(answered.deferred ? await answered.deferred : answered, ctx);
}

/** DELETE /mcp: ends the session named (204); the same refusals as a request inside it. */
function remove(request: Request, ctx: Context): Response {
  const headers = sessionHeaders(request);
  const refused = ctx.sessions.refuse(headers);
  if (refused) return refusal(refused.status, refused.message);
  ctx.sessions.end(headers.sessionId!);
  return new Response(null, { status: 204 });
}

/** Every request: the guards in order (where from, who), then the path, then the method. */
async function route(request: Request, ctx: Context): Promise<Response> {
  const foreign = originProblem(request.headers.get('host'), request.headers.get('origin'), ctx.allowed);
  if (foreign) return refusal(403, foreign);
  if (ctx.authorized && !ctx.authorized(request.headers.get('authorization'))) {
    return refusal(401, 'Authorization: Bearer <token> is required (the token the server was given)', { 'www-authenticate': 'Bearer' });
  }
  if (new URL(request.url).pathname !== '/mcp') return refusal(404, 'not found: the MCP endpoint is /mcp');
  if (request.method === 'POST') return post(request, ctx);
  if (request.method === 'DELETE') return remove(request, ctx);
  return refusal(405, `${request.method} is not served: POST one message, DELETE to end a session (no GET stream)`, { allow: 'POST, DELETE' });
}

/** Resolves with why the server stops: a signal (its name) or, with `exitOnStdinEof`, stdin's end. */
function stopRequested(options: HttpServeOptions, io: HttpServeIo): { readonly reason: Promise<string>; readonly release: () => void } {
  const reasons: Promise<string>[] = [];
  let release = (): void => undefined;
  if (io.stop) {
    const stop = io.stop;
    reasons.push(stop.aborted ? Promise.resolve(String(stop.reason)) : new Promise((resolve) => stop.addEventListener('abort', () => resolve(String(stop.reason)), { once: true })));
  }
  if (options.exitOnStdinEof && io.stdin) {
    const chunks = io.stdin[Symbol.asyncIterator]();
    // Returned on a stop by signal, so a pending read of stdin does not hold the process.
    release = () => void chunks.return?.().catch(() => undefined);
    reasons.push((async () => {
      while (!(await chunks.next()).done);
      return 'stdin closed';
    })().catch(() => 'stdin failed'));
  }
  return { reason: reasons.length > 0 ? Promise.race(reasons) : new Promise(() => undefined), release };
}

/** How a stop ended: every request in flight answered, the grace over, or a second signal (its name); and how many requests it cut. */
type How = { readonly how: 'drained' } | { readonly how: 'grace over' } | { readonly how: 'forced'; readonly by: string };
type Closed = How & { readonly cut: number };

/**
 * Stops listening at once, lets requests in flight finish (their answers
 * written) for a grace, or until `force` is aborted (a second signal), then
 * closes the sockets of what is left.
 */
async function close(listener: Server<undefined>, force: AbortSignal | undefined): Promise<Closed> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onForce = (): void => undefined;
  const grace = new Promise<How>((resolve) => (timer = setTimeout(() => resolve({ how: 'grace over' }), STOP_GRACE_MS)));
  const forced = new Promise<How>((resolve) => {
    onForce = () => resolve({ how: 'forced', by: String(force!.reason) });
    if (force?.aborted) onForce();
    else force?.addEventListener('abort', onForce, { once: true });
  });
  const how = await Promise.race([listener.stop(false).then((): How => ({ how: 'drained' })), grace, forced]);
  clearTimeout(timer);
  force?.removeEventListener('abort', onForce);
  const cut = how.how === 'drained' ? 0 : listener.pendingRequests;
  await listener.stop(true);
  return { ...how, cut };
}

/** The last log line of a stop: what became of the requests that were in flight. */
function stoppedLine(reason: string, closed: Closed, sessions: number): string {
  const ended = `${sessions} sessions ended`;
  if (closed.how === 'drained') return `${reason}: stopped (listener closed, answers in flight written, ${ended})`;
  if (closed.how === 'grace over') return `${reason}: stopped (listener closed, ${closed.cut} requests still in flight after ${STOP_GRACE_MS} ms cut, ${ended})`;
  return `${reason}: stopped at once by a second ${closed.by} (listener closed, ${closed.cut} requests in flight cut, ${ended})`;
}

function listen(options: HttpServeOptions, ctx: Context): Server<undefined> {
  return Bun.serve({
    hostname: options.host,
    port: options.port,
    fetch: (request) => route(request, ctx),
    // A bug in a handler, or a client gone mid-body: one line, and a 500 if anyone still listens.
    error: (error) => {
      ctx.log(`request failed: ${error.message.split('\n')[0]!.slice(0, 160)}`);
      return refusal(500, 'Internal error', {}, RPC_ERROR.internal);
    },
  });
}

/**
 * Serves a tools-only server over Streamable HTTP until a signal or (with
 * `exitOnStdinEof`) stdin's end: prints `listening http://HOST:PORT/mcp` once
 * bound, then stops cleanly (listener closed, answers in flight written).
 *
 * @returns 0 after a stop, 3 when it could not listen (address in use, a host it cannot bind).
 */
export async function serveToolsHttp(server: ToolServer, options: HttpServeOptions, io: HttpServeIo): Promise<number> {
  const log = (text: string): void => io.stderr(`caplab serve: ${text}\n`);
  // 2025-11-25 tasks, shared by every session (a task id is the only handle): `probe --task-status` may ask from a later one.
  const tasks = new ServeTasks();
  const ctx: Context = {
    // The modern era is stdio only here: over HTTP it needs its header rules, not built.
    methods: toolServerMethods(server, 'legacy', tasks),
    sessions: new HttpSessions({ limit: LIMITS.httpSessions, idleMs: LIMITS.httpSessionIdleMs, now: io.now ?? Date.now }),
    allowed: allowedOrigins(options.allowOrigins),
    authorized: options.token === undefined ? undefined : bearerCheck(options.token),
    log,
  };
  let listener: Server<undefined>;
  try {
    listener = listen(options, ctx);
  } catch (error) {
    const address = `${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`;
    log(`cannot listen on ${address}: ${(error as Error).message.split('\n')[0]}`);
    return HTTP_SERVE_EXIT.listen;
  }
  if (!isLoopbackName(options.host)) {
    log(`warning: --host ${options.host} is not loopback: every machine that reaches it can call the tools${options.token === undefined ? ' (no --token-env)' : ''}`);
  }
  const url = new URL('/mcp', listener.url).href;
  log(`${server.info.name} ${server.info.version} ready (MCP ${PROTOCOL_VERSION}, Streamable HTTP; pid ${process.pid}${options.token === undefined ? '' : '; bearer token required'})`);
  io.stdout(`listening ${url}\n`);
  const stop = stopRequested(options, io);
  const reason = await stop.reason;
  stop.release();
  const closing = close(listener, io.force);
  log(`${reason}: stopping (listener closed; ${listener.pendingRequests} requests in flight)`);
  log(stoppedLine(reason, await closing, ctx.sessions.size));
  tasks.close();
  return HTTP_SERVE_EXIT.ok;
}
