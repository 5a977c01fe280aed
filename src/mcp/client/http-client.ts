import { randomBytes } from 'node:crypto';
import { fail, LIMITS, ok, type Failure, type Outcome } from '../../contract/index.ts';
import { openHttpTransport, spawnChild, StderrTail, terminate, type ChildProcess, type CloseReport, type HttpCloseReport, type HttpEndpoint } from '../wire/index.ts';
import { DEFAULT_TIMEOUTS, identityAt, startFailure, withStderr, type ClientOptions, type StrictClient, type Timeouts } from './client.ts';
import { startStrictSession } from './strict-session.ts';

/** What closing a served-over-HTTP server took: the HTTP session's end (DELETE), then its process group's. */
export interface HttpServeCloseReport extends CloseReport {
  readonly http: HttpCloseReport;
}

export interface HttpServeClientOptions extends Omit<ClientOptions, 'limits'> {
  /**
   * The variable the server takes its bearer token from (its launch says
   * `--token-env NAME`): set in its environment to a fresh random token,
   * sent as `Authorization: Bearer …`, never recorded (a placed value, so
   * it is redacted from the server's stderr too).
   */
  readonly tokenEnv: string;
  /** How long the server may take to print its `listening` line (default: the handshake's timeout). */
  readonly startupMs?: number;
}

/** The strict client over HTTP to a server it spawned: its close report says how both ended. */
export interface HttpServeClient extends StrictClient {
  close(): Promise<HttpServeCloseReport>;
}

/** Only a loopback URL at /mcp: the token is sent to nowhere else. */
const LISTENING = /^listening (http:\/\/(?:127\.0\.0\.1|\[::1\]|localhost):[1-9][0-9]{0,4}\/mcp)$/;

/**
 * Reads the server's first stdout line, at most `LIMITS.serveLineBytes`,
 * within `ms`; the rest of stdout is read and dropped, so the server never
 * blocks on a full pipe.
 */
export async function readListening(stdout: ReadableStream<Uint8Array>, ms: number): Promise<Outcome<string>> {
  const reader = stdout.getReader();
  let timer: Timer | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  let bytes = new Uint8Array(0);
  try {
    for (;;) {
      const read = await Promise.race([reader.read(), late]);
      if (read === 'late') return fail('timeout', 'deadline', `the server printed no \`listening\` line within ${ms} ms`);
      if (read.done) return fail('spawn', 'exited_early', 'the server closed its stdout before its `listening` line');
      bytes = Buffer.concat([bytes, read.value]);
      const end = bytes.indexOf(0x0a);
      if (end === -1 && bytes.byteLength <= LIMITS.serveLineBytes) continue;
      if (end === -1 || end > LIMITS.serveLineBytes) return fail('spawn', 'spawn_failed', `the server's first stdout line is over ${LIMITS.serveLineBytes} bytes`);
      const line = new TextDecoder().decode(bytes.subarray(0, end));
      const match = LISTENING.exec(line);
      return match ? ok(match[1]!) : fail('spawn', 'spawn_failed', 'the server\'s first stdout line is not `listening http://<loopback>:PORT/mcp`');
    }
  } finally {
    clearTimeout(timer);
    void drop(reader);
  }
}

async function drop(reader: { read(): Promise<{ done: boolean }> }): Promise<void> {
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read());
  } catch {
    // the stream broke with the process
  }
}

/** The HTTP endpoint as bindings record it: the URL and the header's name, never its value. */
const endpointOf = (url: string): HttpEndpoint => ({ kind: 'http', url, headerNames: ['Authorization'] });

/**
 * Spawns a server that serves MCP over Streamable HTTP (`serve --http --port
 * 0 --exit-on-stdin-eof --token-env NAME`) in its own process group with a
 * fresh token, reads its `listening` line, and runs the fixed-profile
 * handshake over HTTP with the token as a bearer header. Closing ends the
 * HTTP session (DELETE), then the server's stdin (it exits), then reaps its
 * group as the stdio client does. On any failure the group is stopped before
 * the failure is returned, with the server's stderr tail.
 */
export async function openHttpServeClient(options: HttpServeClientOptions): Promise<Outcome<HttpServeClient>> {
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const token = randomBytes(32).toString('hex');
  const spawned = (options.spawn ?? spawnChild)({ ...options.launch, env: { ...options.launch.env, [options.tokenEnv]: token } });
  if (!spawned.ok) return spawned;
  const child = spawned.value;
  const tail = new StderrTail(LIMITS.serverStderrTailBytes, child.redactor);
  const drained = tail.drain(child.stderr);
  const stopped = async (failure: Failure): Promise<Failure> => {
    await stopGroup(child, timeouts, drained);
    return startFailure(failure, tail.text());
  };
  const url = await readListening(child.stdout, options.startupMs ?? timeouts.handshakeMs);
  if (!url.ok) return stopped(url);
  const transport = openHttpTransport({ url: url.value, headers: { Authorization: `Bearer ${token}` }, closeMs: timeouts.exitMs });
  if (!transport.ok) return stopped(transport);
  const session = await startStrictSession(transport.value, { tools: options.tools, timeouts, explainClosed: (failure) => withStderr(failure, tail.text()) });
  if (!session.ok) return stopped(session);
  const close = once(async (): Promise<HttpServeCloseReport> => {
    const http = await session.value.close();
    return { ...(await stopGroup(child, timeouts, drained)), http };
  });
  return ok({ ...session.value, identity: identityAt(options, session.value, endpointOf(url.value)), pid: child.pid, stderr: () => tail.text(), close });
}

/** Ends the server's stdin (`--exit-on-stdin-eof`: it exits), reaps its group, and waits (bounded) for the last of its stderr. */
async function stopGroup(child: ChildProcess, timeouts: Timeouts, drained: Promise<void>): Promise<CloseReport> {
  const report = await terminate(child, timeouts);
  let timer: Timer | undefined;
  await Promise.race([drained, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeouts.killMs)))]);
  clearTimeout(timer);
  return report;
}

function once<T>(run: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () => (started ??= run());
}
