/**
 * Session setup and close over Streamable HTTP against stdio (issue 24), in
 * ms, the kinds alternating their order per repetition, the first repetition
 * warm-up:
 *
 * - spawned: a server's whole session as a run has it — spawn, initialize,
 *   list; then close (over HTTP: DELETE, then the server stopped). caplab's
 *   over HTTP is `demo --transport http`'s: `caplab serve --http --port 0
 *   --exit-on-stdin-eof --token-env …` (src/main.ts) with a fresh token,
 *   through openHttpServeClient; over stdio `caplab serve`.
 * - session: on a server already running, initialize, list, DELETE — caplab's
 *   host session (openHttpHostClient, as probe `--url` connects) and the SDK
 *   client, each against `caplab serve --http` and against the SDK server.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DEV_SERVE_ENTRY } from '../../src/cli/tasks.ts';
import { fixtureLaunch } from '../../src/excerpt/index.ts';
import type { Started } from './http-servers.ts';
import { openCaplabHttp, openHostHttp, SDK_HTTP_SERVER, sdkHttpClose, sdkHttpConnect } from './http-targets.ts';
import type { Track } from './servers.ts';
import { openCaplab, openSdk, readSnapshot } from './targets.ts';
import { nowUs, ratio, stats, type Stats } from './util.ts';

const ROOT = join(import.meta.dir, '../..');
const FIXTURES = join(ROOT, 'fixtures/sources');
const TOKEN_ENV = 'BENCH_SERVE_TOKEN';

export interface SetupRow {
  readonly name: string;
  readonly open: Stats;
  readonly close: Stats;
}

export interface HttpSetup {
  readonly spawned: readonly SetupRow[];
  readonly session: readonly SetupRow[];
  readonly ratios: readonly { readonly name: string; readonly ratio: number }[];
}

type Open = () => Promise<() => Promise<unknown>>;

/** Times each kind's open, then its close; order alternates per repetition, the first is warm-up. */
async function openCloseTimes(kinds: Readonly<Record<string, Open>>, reps: number): Promise<SetupRow[]> {
  const open: Record<string, number[]> = {};
  const close: Record<string, number[]> = {};
  for (let rep = -1; rep < reps; rep++) {
    const names = Object.keys(kinds);
    for (const name of rep % 2 === 0 ? names : names.reverse()) {
      const t0 = nowUs();
      const closer = await kinds[name]!();
      const t1 = nowUs();
      await closer();
      const t2 = nowUs();
      if (rep < 0) continue;
      (open[name] ??= []).push((t1 - t0) / 1000);
      (close[name] ??= []).push((t2 - t1) / 1000);
    }
  }
  return Object.keys(kinds).map((name) => ({ name, open: stats(open[name]!), close: stats(close[name]!) }));
}

/** Spawn + initialize + list, then close, for the four pairs (SDK and caplab, stdio and HTTP). */
function spawnedKinds(started: Started, track: Track): Record<string, Open> {
  const snapshot = readSnapshot(FIXTURES);
  return {
    'SDK, stdio': async () => {
      const sdk = track(await openSdk(FIXTURES));
      return () => sdk.close();
    },
    'SDK, HTTP (JSON answers)': async () => {
      const server = await started.spawn([process.execPath, SDK_HTTP_SERVER, FIXTURES, '--json']);
      const opened = await sdkHttpConnect(server.url);
      return async () => (await sdkHttpClose(opened), await server.stop());
    },
    'caplab, stdio (caplab serve)': async () => {
      const session = await openCaplab(snapshot);
      track(session.client);
      return () => session.close();
    },
    'caplab, HTTP (caplab serve --http)': async () => {
      const session = await openCaplabHttp(snapshot, fixtureLaunch({ devEntry: DEV_SERVE_ENTRY, http: true }));
      track(session.client);
      return () => session.close();
    },
  };
}

/** initialize + list, then DELETE, on servers already running: each client against each server. */
function sessionKinds(caplab: { url: string; token: string }, sdk: { url: string }): Record<string, Open> {
  const host = (url: string, headers?: Record<string, string>): Open => async () => {
    const opened = await openHostHttp(url, headers);
    return () => opened.close();
  };
  const sdkClient = (url: string, headers?: Record<string, string>): Open => async () => {
    const opened = await sdkHttpConnect(url, headers);
    return () => sdkHttpClose(opened);
  };
  return {
    'SDK client → SDK server': sdkClient(sdk.url),
    'caplab host session → SDK server': host(sdk.url),
    'SDK client → caplab serve --http': sdkClient(caplab.url, { Authorization: `Bearer ${caplab.token}` }),
    'caplab host session → caplab serve --http': host(caplab.url, { Authorization: `Bearer ${caplab.token}` }),
  };
}

const open = (rows: readonly SetupRow[], name: string): number => rows.find((r) => r.name === name)!.open.median;

export async function httpSetup(started: Started, reps: number, track: Track, log: (text: string) => void): Promise<HttpSetup> {
  log('HTTP session setup, spawned servers …\n');
  const spawned = await openCloseTimes(spawnedKinds(started, track), reps);
  log('HTTP session setup, running servers …\n');
  const token = randomBytes(32).toString('hex');
  const caplab = await started.spawn([process.execPath, join(ROOT, 'src/main.ts'), 'serve', '--http', '--port', '0', '--exit-on-stdin-eof', '--token-env', TOKEN_ENV], { [TOKEN_ENV]: token });
  const sdk = await started.spawn([process.execPath, SDK_HTTP_SERVER, FIXTURES, '--json']);
  let session: SetupRow[];
  try {
    session = await openCloseTimes(sessionKinds({ url: caplab.url, token }, sdk), reps);
  } finally {
    await caplab.stop();
    await sdk.stop();
  }
  const ratios = [
    { name: 'spawned: caplab HTTP / SDK HTTP', ratio: ratio(open(spawned, 'caplab, HTTP (caplab serve --http)'), open(spawned, 'SDK, HTTP (JSON answers)')) },
    { name: 'spawned: caplab HTTP / caplab stdio', ratio: ratio(open(spawned, 'caplab, HTTP (caplab serve --http)'), open(spawned, 'caplab, stdio (caplab serve)')) },
    { name: 'spawned: SDK HTTP / SDK stdio', ratio: ratio(open(spawned, 'SDK, HTTP (JSON answers)'), open(spawned, 'SDK, stdio')) },
    { name: 'spawned: caplab stdio / SDK stdio', ratio: ratio(open(spawned, 'caplab, stdio (caplab serve)'), open(spawned, 'SDK, stdio')) },
    { name: 'running: caplab host → SDK server / SDK client', ratio: ratio(open(session, 'caplab host session → SDK server'), open(session, 'SDK client → SDK server')) },
    { name: 'running: SDK client → caplab serve --http / → SDK server', ratio: ratio(open(session, 'SDK client → caplab serve --http'), open(session, 'SDK client → SDK server')) },
    { name: 'running: caplab → caplab / SDK → SDK', ratio: ratio(open(session, 'caplab host session → caplab serve --http'), open(session, 'SDK client → SDK server')) },
  ];
  return { spawned, session, ratios };
}
