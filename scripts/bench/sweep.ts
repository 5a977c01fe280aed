/**
 * Steady calls across payload sizes: for each source size, fresh sources are
 * written, the four targets (raw pipe echo, SDK client+server, caplab client,
 * caplab tool) are opened side by side and timed interleaved. The echo sends
 * exactly the bytes caplab's server answered for each source, so it is the
 * floor for that payload.
 */
import { join } from 'node:path';
import { LIMITS } from '../../src/contract/index.ts';
import { caplabClient, caplabTool, openCaplab, openEcho, openSdk, sourcesLaunch, writeSources, type Target } from './targets.ts';
import { nowUs, ratio, stats, type Stats } from './util.ts';

export interface CallSettings {
  readonly calls: number;
  readonly warmup: number;
  /** Calls are split into rounds and the target order rotates per round, so drift lands on every target alike. */
  readonly rounds: number;
}

export interface SizePoint {
  readonly sourceBytes: number;
  /** Bytes of caplab's response line per source (alpha, beta), newline included. */
  readonly responseBytes: readonly number[];
  readonly responsePerSourceByte: number;
  readonly perCallUs: readonly { readonly name: string; readonly us: Stats }[];
}

/** Per-call latency in µs: warm-up, then `rounds` rounds with the target order rotated each round. */
export async function callTimes(targets: readonly Target[], settings: CallSettings) {
  for (const target of targets) for (let i = 0; i < settings.warmup; i++) await target.call(i);
  const samples = targets.map(() => [] as number[]);
  const perRound = Math.ceil(settings.calls / settings.rounds);
  for (let round = 0; round < settings.rounds; round++) {
    for (let k = 0; k < targets.length; k++) {
      const index = (k + round) % targets.length;
      const target = targets[index]!;
      for (let j = 0; j < perRound && samples[index]!.length < settings.calls; j++) {
        const i = samples[index]!.length;
        const t0 = nowUs();
        await target.call(i);
        samples[index]!.push(nowUs() - t0);
      }
    }
  }
  return targets.map((t, i) => ({ name: t.name, us: stats(samples[i]!) }));
}

/** One size: sources written under `scratch`, targets opened, timed, closed. */
export async function measureSize(scratch: string, sourceBytes: number, settings: CallSettings, track: <T extends { pid: number }>(t: T) => T): Promise<SizePoint> {
  const dir = join(scratch, `sources-${sourceBytes}`);
  const snapshot = writeSources(dir, sourceBytes);
  const launch = sourcesLaunch(dir);
  const clientSession = await openCaplab(snapshot, launch);
  const client = track(caplabClient(clientSession));
  const targets: Target[] = [client];
  try {
    // The echo sends what caplab's server actually answered for each source.
    await client.call(0);
    await client.call(1);
    const responseBytes = clientSession.exchanges().map((e) => e.responseBytes);
    const over = responseBytes.find((b) => b > LIMITS.mcpLineBytes);
    if (over !== undefined) throw new Error(`a ${sourceBytes}-byte source gave a ${over}-byte response line, over the client's ${LIMITS.mcpLineBytes}-byte limit`);
    targets.unshift(track(openEcho(responseBytes)), track(await openSdk(dir)));
    targets.push(track(caplabTool(await openCaplab(snapshot, launch))));
    const perCallUs = await callTimes(targets, settings);
    return { sourceBytes, responseBytes, responsePerSourceByte: ratio(Math.max(...responseBytes), sourceBytes), perCallUs };
  } finally {
    for (const target of targets) await target.close();
  }
}

/** Per-KiB cost between two sizes (µs per KiB of source) and the ratio of the two medians. */
export function slope(points: readonly SizePoint[], small: number, large: number) {
  const at = (bytes: number) => points.find((p) => p.sourceBytes === bytes);
  const [a, b] = [at(small), at(large)];
  if (!a || !b) return [];
  return a.perCallUs.map(({ name }, i) => {
    const [ua, ub] = [a.perCallUs[i]!.us.median, b.perCallUs[i]!.us.median];
    return { name, usPerKiB: Math.round(((ub - ua) / ((large - small) / 1024)) * 100) / 100, largeOverSmall: ratio(ub, ua) };
  });
}
