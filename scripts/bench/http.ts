/**
 * Streamable HTTP (issue 24), all in one run on one machine, reported as
 * ratios (measurement only: nothing is asserted but that each target worked
 * and that nothing was left behind):
 *
 * - steady read_source round trips (1 KiB sources) of caplab's strict client
 *   over HTTP (as `demo --transport http` opens it) and of its host session
 *   over HTTP (probe `--url`, `.mcp.json` http entries), against the SDK's
 *   Streamable HTTP client and server, the same over stdio, and the raw pipe
 *   and HTTP floors, all open at once and timed interleaved (sweep.ts);
 * - session setup and close: a spawned server's whole session (spawn,
 *   initialize, list; DELETE, stop) over HTTP and over stdio, and on a running
 *   server the session alone (initialize, list, DELETE);
 * - `caplab probe --url` listing 1,000 realistic tools against `caplab probe
 *   -- SERVER` listing the same over stdio, whole processes.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_TOKEN_ENV } from '../../src/excerpt/fixture-launch.ts';
import { openHostClient } from '../../src/mcp/index.ts';
import { socketCount, socketsBackTo } from '../../src/mcp/wire/testing/http-peer.ts';
import { httpListing, type HttpListing } from './http-listing.ts';
import { startedServers, type Started } from './http-servers.ts';
import { httpSetup, type HttpSetup } from './http-setup.ts';
import { hostHttpTarget, openCaplabHttp, openHttpEcho, openSdkHttp, SDK_HTTP_SERVER, sourcesHttpLaunch } from './http-targets.ts';
import { hostCallTarget, type Track } from './servers.ts';
import { callTimes, type CallSettings } from './sweep.ts';
import { caplabClient, openCaplab, openEcho, openSdk, readSnapshot, sourcesLaunch, writeSources, type Target } from './targets.ts';
import { ratio, type Stats } from './util.ts';

const SDK_SERVER = join(import.meta.dir, 'sdk-server.ts');
const ECHO_HTTP = join(import.meta.dir, 'echo-http.ts');

export interface Ratio {
  readonly name: string;
  readonly ratio: number;
}

export interface HttpSteady {
  readonly perCallUs: readonly { readonly name: string; readonly us: Stats; readonly vsSdkHttp: number; readonly vsSdkStdio: number }[];
  /** caplab's response bytes per source (alpha, beta) over stdio: what the echoes send. */
  readonly responseBytes: readonly number[];
  readonly ratios: readonly Ratio[];
}

/** The steady table's rows: who calls whom, over which transport. */
const N = {
  pipe: 'raw pipe echo',
  pooled: 'raw HTTP echo (fetch, keep-alive)',
  fresh: 'raw HTTP echo (fetch, Connection: close)',
  sdkStdio: 'SDK client → SDK server, stdio',
  sdkJson: 'SDK client → SDK server, HTTP (JSON answers)',
  sdkSse: 'SDK client → SDK server, HTTP (SSE answers)',
  sdkCaplab: 'SDK client → caplab server, HTTP',
  strictStdio: 'caplab client.callTool → caplab server, stdio',
  strictHttp: 'caplab client.callTool → caplab server, HTTP',
  hostStdio: 'caplab host session → SDK server, stdio',
  hostSdk: 'caplab host session → SDK server, HTTP (JSON)',
  hostCaplab: 'caplab host session → caplab server, HTTP',
} as const;

const median = (rows: HttpSteady['perCallUs'], name: string): number => rows.find((r) => r.name === name)!.us.median;

/** caplab's strict client over stdio and over HTTP (as the product opens it); the stdio one's two answers size the echoes. */
async function strictTargets(dir: string, track: Track, into: Target[]): Promise<number[]> {
  const snapshot = readSnapshot(dir);
  const stdioSession = await openCaplab(snapshot, sourcesLaunch(dir));
  const stdio = track(caplabClient(stdioSession));
  into.push({ ...stdio, name: N.strictStdio });
  await stdio.call(0);
  await stdio.call(1);
  into.push({ ...track(caplabClient(await openCaplabHttp(snapshot, sourcesHttpLaunch(dir)))), name: N.strictHttp });
  return stdioSession.exchanges().map((e) => e.responseBytes);
}

/** Every target of the steady table, in N's order: floors, the SDK client, caplab's strict client, its host session. */
async function steadyTargets(dir: string, started: Started, track: Track): Promise<{ targets: Target[]; responseBytes: number[] }> {
  const targets: Target[] = [];
  try {
    const responseBytes = await strictTargets(dir, track, targets);
    const sdkJson = await started.spawn([process.execPath, SDK_HTTP_SERVER, dir, '--json']);
    const token = randomBytes(32).toString('hex');
    const caplab = await started.spawn(sourcesHttpLaunch(dir).command, { [FIXTURE_TOKEN_ENV]: token });
    const bearer = { Authorization: `Bearer ${token}` };
    const host = await openHostClient({ key: 'bench', launch: { command: [process.execPath, SDK_SERVER, dir], cwd: '/', env: {} }, instanceId: 'bench/host' });
    if (!host.ok) throw new Error(`openHostClient: ${host.class}/${host.kind}: ${host.message}`);
    targets.push(await hostCallTarget(track(host.value), N.hostStdio, host.value.pid), await hostHttpTarget(sdkJson, N.hostSdk), await hostHttpTarget(caplab, N.hostCaplab, bearer));
    targets.unshift(
      track(openEcho(responseBytes)),
      openHttpEcho(await started.spawn([process.execPath, ECHO_HTTP]), responseBytes, false),
      openHttpEcho(await started.spawn([process.execPath, ECHO_HTTP]), responseBytes, true),
      { ...track(await openSdk(dir)), name: N.sdkStdio },
      await openSdkHttp(sdkJson, N.sdkJson),
      await openSdkHttp(await started.spawn([process.execPath, SDK_HTTP_SERVER, dir]), N.sdkSse),
      await openSdkHttp(caplab, N.sdkCaplab, bearer),
    );
    return { targets, responseBytes };
  } catch (error) {
    for (const target of targets) await target.close();
    throw error;
  }
}

/** Steady calls, 1 KiB sources: every target open at once, timed interleaved, closed after (servers stopped by the caller). */
export async function httpSteady(scratch: string, settings: CallSettings, started: Started, track: Track): Promise<HttpSteady> {
  const dir = join(scratch, 'http-sources-1024');
  writeSources(dir, 1024);
  const { targets, responseBytes } = await steadyTargets(dir, started, track);
  let timed;
  try {
    timed = await callTimes(targets, settings);
  } finally {
    for (const target of targets) await target.close();
  }
  const [sdkHttp, sdkStdio] = [timed.find((t) => t.name === N.sdkJson)!.us.median, timed.find((t) => t.name === N.sdkStdio)!.us.median];
  const perCallUs = timed.map(({ name, us }) => ({ name, us, vsSdkHttp: ratio(us.median, sdkHttp), vsSdkStdio: ratio(us.median, sdkStdio) }));
  const over = (a: string, b: string, name: string): Ratio => ({ name, ratio: ratio(median(perCallUs, a), median(perCallUs, b)) });
  const ratios = [
    over(N.strictHttp, N.strictStdio, 'caplab strict client → caplab server: HTTP / stdio'),
    over(N.hostSdk, N.hostStdio, 'caplab host session → SDK server: HTTP / stdio'),
    over(N.sdkJson, N.sdkStdio, 'SDK → SDK (JSON answers): HTTP / stdio'),
    over(N.sdkSse, N.sdkStdio, 'SDK → SDK (SSE answers): HTTP / stdio'),
    over(N.strictHttp, N.sdkJson, 'HTTP: caplab strict → caplab / SDK → SDK (JSON)'),
    over(N.hostCaplab, N.sdkJson, 'HTTP: caplab host → caplab / SDK → SDK (JSON)'),
    over(N.hostSdk, N.sdkJson, 'HTTP, SDK server: caplab host session / SDK client'),
    over(N.hostCaplab, N.sdkCaplab, 'HTTP, caplab server: caplab host session / SDK client'),
    over(N.sdkCaplab, N.sdkJson, 'HTTP, SDK client: caplab server / SDK server (JSON)'),
    over(N.fresh, N.pooled, 'raw HTTP floor: fresh connection / pooled'),
    over(N.pooled, N.pipe, 'raw floor: HTTP (pooled) / pipe'),
  ];
  return { perCallUs, responseBytes, ratios };
}

export interface HttpBench {
  readonly steady: HttpSteady;
  readonly setup: HttpSetup;
  readonly listing: HttpListing;
  /** What the HTTP part left: TCP sockets of the bench process (before, after), ports still accepting, entries in probe's TMPDIR. */
  readonly leftovers: { readonly socketsBefore: number; readonly socketsAfter: number; readonly portsStillOpen: readonly number[]; readonly tempEntries: readonly string[] };
}

/** The HTTP rows (see the file's comment); every server started here is stopped and checked before it returns. */
export async function httpBench(caplab: readonly string[], scratch: string, settings: CallSettings, reps: number, track: Track, log: (text: string) => void): Promise<HttpBench> {
  const socketsBefore = socketCount();
  const started = startedServers(track);
  const tmp = join(scratch, 'probe-tmp');
  mkdirSync(tmp, { recursive: true });
  let steady: HttpSteady, setup: HttpSetup, listing: HttpListing;
  let portsStillOpen: number[];
  try {
    log(`HTTP steady calls, 1 KiB sources …\n`);
    steady = await httpSteady(scratch, settings, started, track);
    setup = await httpSetup(started, reps, track, log);
    listing = await httpListing(caplab, started, Math.min(reps, 3), tmp, log);
  } finally {
    portsStillOpen = await started.stopAll();
  }
  const socketsAfter = await socketsBackTo(socketsBefore);
  return { steady, setup, listing, leftovers: { socketsBefore, socketsAfter, portsStillOpen, tempEntries: readdirSync(tmp) } };
}
