/**
 * Configured servers (issue 22, `--mcp-config`) through the path the CLI takes
 * (src/cli/configured.ts `startConfigured`: loadMcpConfig, probe's clean
 * launch, the host session, Ajv for listed schemas, binding), each against a
 * baseline written only with the official SDK, in the same run:
 *
 * - starting N copies of the SDK baseline server at once (start = spawn,
 *   handshake, tools/list, and for caplab compile and bind) against N SDK
 *   clients connecting and listing in parallel;
 * - steady tools/call round trips to one such server: the host session's
 *   callTool, and a configured tool as the pipeline calls it (arguments
 *   checked, handler), against the SDK client and the raw pipe echo floor;
 * - and (servers-listing.ts) a listing of 1,000 realistic tools bound.
 *
 * Measurement only: every figure is a time or a ratio; the only check is that
 * each server started and bound what it listed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startConfigured, type StartedConfig } from '../../src/cli/configured.ts';
import type { Io } from '../../src/cli/io.ts';
import { validateArguments } from '../../src/contract/index.ts';
import { listedCompiler } from '../../src/harness/index.ts';
import { openHostClient, type HostSession } from '../../src/mcp/index.ts';
import type { CallContext, RuntimeTool } from '../../src/pipeline/index.ts';
import { callTimes, type CallSettings } from './sweep.ts';
import { openEcho, openSdk, type Target } from './targets.ts';
import { nowUs, ratio, stats, type Stats } from './util.ts';

const SDK_SERVER = join(import.meta.dir, 'sdk-server.ts');
const FIXTURES = join(import.meta.dir, '../../fixtures/sources');
/** The CLI's defaults (src/cli/server-flags.ts), spelled out: a bench has no flags to parse. */
const FLAGS = { requireServers: [], startupTimeoutMs: 120_000, timeoutMs: 10_000 } as const;
const source = (i: number) => (i % 2 === 0 ? 'alpha' : 'beta');

export type Track = <T extends { pid: number }>(t: T) => T;
type Entry = { readonly command: string; readonly args: readonly string[] };

/** Writes an `.mcp.json` with these entries, keyed as given. */
export function writeConfig(path: string, entries: Readonly<Record<string, Entry>>): string {
  writeFileSync(path, JSON.stringify({ mcpServers: entries }));
  return path;
}

/** An Io for `startConfigured`: the bench's environment and cwd, output kept (notices would be a finding). */
function benchIo(cwd: string): Io & { readonly said: string[] } {
  const said: string[] = [];
  return { stdout: (t) => void said.push(t), stderr: (t) => void said.push(t), env: process.env, cwd, isTTY: false, said };
}

/** Starts a config through the CLI's path; every server must start and bind every tool it listed. */
export async function startThrough(file: string, cwd: string, runId: string): Promise<StartedConfig> {
  const started = await startConfigured({ ...FLAGS, mcpConfig: file }, false, benchIo(cwd), runId);
  if (!started.ok) throw new Error(`startConfigured ${file}: ${JSON.stringify(started.refusal)}`);
  const bad = started.value.servers.starts.filter((s) => s.status !== 'started' || s.tools.some((t) => t.status !== 'bound'));
  if (bad.length > 0) {
    await started.value.servers.close();
    throw new Error(`configured servers not started or not bound: ${JSON.stringify(bad.map((s) => ({ key: s.key, status: s.status, failure: s.failure, unbound: s.tools.filter((t) => t.status !== 'bound') })))}`);
  }
  return started.value;
}

/** The SDK as a user writes it: Client + StdioClientTransport, connect, listTools. */
export async function sdkConnect(command: string, args: readonly string[], track: Track): Promise<Client> {
  const transport = new StdioClientTransport({ command, args: [...args], stderr: 'ignore' });
  const client = new Client({ name: 'bench-sdk-client', version: '1.0.0' });
  await client.connect(transport);
  track({ pid: transport.pid ?? -1 });
  await client.listTools();
  return client;
}

export interface StartPoint {
  readonly servers: number;
  readonly caplab: { readonly openMs: Stats; readonly closeMs: Stats };
  readonly sdk: { readonly openMs: Stats; readonly closeMs: Stats };
  /** caplab's start median over the SDK's. */
  readonly openRatio: number;
}

/** Times one side's open-all then close-all, in ms. */
async function openClose(open: () => Promise<() => Promise<unknown>>): Promise<[number, number]> {
  const t0 = nowUs();
  const close = await open();
  const t1 = nowUs();
  await close();
  return [(t1 - t0) / 1000, (nowUs() - t1) / 1000];
}

/**
 * N copies of the SDK baseline server (one read_source tool with an
 * outputSchema) started at once per count; the two sides alternate which goes
 * first each repetition, and the first repetition is warm-up.
 */
export async function startMany(scratch: string, counts: readonly number[], reps: number, track: Track, log: (text: string) => void): Promise<StartPoint[]> {
  const points: StartPoint[] = [];
  for (const n of counts) {
    log(`configured servers, ${n} started at once …\n`);
    const entries = Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, { command: process.execPath, args: [SDK_SERVER, FIXTURES] }]));
    const file = writeConfig(join(scratch, `servers-${n}.mcp.json`), entries);
    const sides: Record<'caplab' | 'sdk', () => Promise<() => Promise<unknown>>> = {
      caplab: async () => {
        const { servers } = await startThrough(file, scratch, `bench-${n}`);
        return () => servers.close();
      },
      sdk: async () => {
        const clients = await Promise.all(Object.values(entries).map((e) => sdkConnect(e.command, e.args, track)));
        return () => Promise.all(clients.map((c) => c.close()));
      },
    };
    const samples = { caplab: { open: [] as number[], close: [] as number[] }, sdk: { open: [] as number[], close: [] as number[] } };
    for (let rep = -1; rep < reps; rep++) {
      for (const side of rep % 2 === 0 ? (['caplab', 'sdk'] as const) : (['sdk', 'caplab'] as const)) {
        const [open, close] = await openClose(sides[side]);
        if (rep >= 0) samples[side].open.push(open), samples[side].close.push(close);
      }
    }
    const side = (s: { open: number[]; close: number[] }) => ({ openMs: stats(s.open), closeMs: stats(s.close) });
    const [caplab, sdk] = [side(samples.caplab), side(samples.sdk)];
    points.push({ servers: n, caplab, sdk, openRatio: ratio(caplab.openMs.median, sdk.openMs.median) });
  }
  return points;
}

/** A context as the pipeline gives a handler (no run dir: the handler of a configured tool writes none). */
const context = (i: number): CallContext => ({
  runDir: '/nonexistent-bench',
  actionId: `a${i}`,
  toolCallId: `t${i}`,
  request: { id: 'bench', payload: new Uint8Array(), payloadSha256: '', bindings: {} },
  signal: new AbortController().signal,
});

/** The host session alone (openHostClient + callTool), with the outputSchema's Ajv validator a run checks results with. */
async function hostClientTarget(track: Track): Promise<Target & { responseBytes(): number[] }> {
  const opened = await openHostClient({ key: 'bench', launch: { command: [process.execPath, SDK_SERVER, FIXTURES], cwd: '/', env: {} }, instanceId: 'bench/host' });
  if (!opened.ok) throw new Error(`openHostClient: ${opened.class}/${opened.kind}: ${opened.message}`);
  return hostCallTarget(track(opened.value), 'caplab host client.callTool', opened.value.pid);
}

/** read_source through an open host session (any transport), its result checked by the listed outputSchema's Ajv validator as a run checks it. */
export async function hostCallTarget(client: HostSession<unknown>, name: string, pid: number): Promise<Target & { responseBytes(): number[] }> {
  const listed = client.listing.entries[0] as { outputSchema: object };
  const output = (await listedCompiler(client.profile))(listed.outputSchema, 'outputSchema', 'read_source');
  if (!output.ok) throw new Error(output.message);
  const tool = { name: 'read_source', output: output.value };
  return {
    name,
    pid,
    async call(i) {
      const called = await client.callTool(tool, { source_id: source(i) }, { toolCallId: `t${i}`, actionId: `a${i}` });
      if (!called.ok) throw new Error(`host callTool: ${called.class}/${called.kind}: ${called.message}`);
    },
    responseBytes: () => client.exchanges().map((e) => e.responseBytes),
    close: async () => void (await client.close()),
  };
}

/** A configured tool as a run's pipeline calls it: arguments checked against the listed schema (Ajv), then the handler. */
async function configuredToolTarget(scratch: string): Promise<Target> {
  const file = writeConfig(join(scratch, 'steady.mcp.json'), { bench: { command: process.execPath, args: [SDK_SERVER, FIXTURES] } });
  const { servers } = await startThrough(file, scratch, 'bench-steady');
  const opened = await servers.provider.open({ runId: 'bench-steady' });
  if (!opened.ok) throw new Error(opened.message);
  const tool: RuntimeTool = opened.value.tools[0]!;
  return {
    name: 'caplab configured tool (validate+handler)',
    // The record names no pid; bench.ts's cleanup still sees the server as its child.
    pid: -1,
    async call(i) {
      const input = validateArguments(tool.contract.input, { source_id: source(i) });
      if (!input.ok) throw new Error(input.message);
      const out = await tool.handler(input.value, context(i));
      if (!out.ok) throw new Error(`configured handler: ${out.class}/${out.kind}: ${out.message}`);
    },
    close: async () => void (await opened.value.close()),
  };
}

export interface SteadyPoint {
  readonly perCallUs: readonly { readonly name: string; readonly us: Stats; readonly vsSdk: number; readonly vsEcho: number }[];
  /** caplab's response line bytes per source (alpha, beta): what the echo sends. */
  readonly responseBytes: readonly number[];
}

/** Steady calls to one SDK baseline server over fixtures/sources, the four targets open at once and timed interleaved. */
export async function steadyCalls(scratch: string, settings: CallSettings, track: Track): Promise<SteadyPoint> {
  const targets: Target[] = [];
  try {
    const host = await hostClientTarget(track);
    targets.push(host);
    await host.call(0);
    await host.call(1);
    const responseBytes = host.responseBytes();
    targets.unshift(track(openEcho(responseBytes)), track(await openSdk(FIXTURES)));
    targets.push(await configuredToolTarget(scratch));
    const timed = await callTimes(targets, settings);
    const [echo, sdk] = [timed[0]!.us.median, timed[1]!.us.median];
    return { perCallUs: timed.map(({ name, us }) => ({ name, us, vsSdk: ratio(us.median, sdk), vsEcho: ratio(us.median, echo) })), responseBytes };
  } finally {
    for (const target of targets) await target.close();
  }
}
