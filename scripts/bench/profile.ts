/**
 * Where one read_source round trip goes (`npm run bench -- --profile`): each
 * part of the path timed on its own, in this process, with the very library
 * pieces the host and `caplab serve` run, on the request and response lines of
 * a real exchange (built by the server's own `answerLine`). What one process
 * cannot time — the two pipe hops' wake-ups and both event loops' scheduling —
 * is the remainder against the round trip measured between processes.
 *
 * Parts that nest are split by difference of medians (marked "by difference").
 */
import { LIMITS, validateArguments } from '../../src/contract/index.ts';
import { checkAgainstSnapshot, READ_SOURCE_EXPECTED, readSourceContract, type ReadSourceResult } from '../../src/excerpt/index.ts';
import { fixtureMethods } from '../../src/excerpt/server/index.ts';
import type { Snapshot } from '../../src/excerpt/snapshot.ts';
import { interpretCall } from '../../src/mcp/client/call.ts';
import { InboundReader } from '../../src/mcp/wire/inbound.ts';
import { encodeLine } from '../../src/mcp/wire/messages.ts';
import { rawFacts } from '../../src/mcp/wire/raw-json.ts';
import { answerBytes, answerLine, type Methods } from '../../src/mcp/server/serve-rpc.ts';
import { nowUs, stats } from './util.ts';

export interface ProfileRow {
  readonly part: string;
  /** Median µs of one run of the part. */
  readonly us: number;
}

/**
 * Median µs of `run`, each run timed on its own, synchronously (an await per
 * run would time the event loop too), after a warm-up long enough for the JIT's
 * upper tiers (up to 50 000 runs or 0.2 s; a few hundred runs leave medians
 * 5–10× high). So each part is its optimized cost; whatever the real calls pay
 * beyond that (less optimized code, GC, scheduling) lands in the remainder.
 */
function time(run: () => unknown, runs: number): number {
  const warm = nowUs();
  for (let i = 0; i < 50_000 && (i < 20 || nowUs() - warm < 200_000); i++) run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = nowUs();
    run();
    samples.push(nowUs() - t0);
  }
  return stats(samples).median;
}

/** The same for a part that must wait (a pipe write past the pipe's buffer). */
async function timeAsync(run: () => Promise<unknown>, runs: number): Promise<number> {
  for (let i = 0; i < Math.min(50, runs); i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = nowUs();
    await run();
    samples.push(nowUs() - t0);
  }
  return stats(samples).median;
}

/** A pipe to a child that reads and drops everything: the cost of handing a line to the kernel (and, past its buffer, to the reader). */
function pipeSink() {
  const proc = Bun.spawn(['/bin/cat'], { stdin: 'pipe', stdout: 'ignore', stderr: 'ignore' });
  return {
    pid: proc.pid,
    write: async (bytes: Uint8Array) => {
      proc.stdin.write(bytes);
      const flushed = proc.stdin.flush();
      if (typeof flushed !== 'number') await flushed;
    },
    close: async () => {
      proc.stdin.end();
      await proc.exited;
    },
  };
}

/**
 * The breakdown for one source of `snapshot` (alpha), `runs` timed runs per part.
 * @param roundTripUs The measured round trip of the same call through the caplab tool (host validation, client, snapshot check, hash).
 */
export async function profileRoundTrip(snapshot: Snapshot, runs: number, roundTripUs: number): Promise<readonly ProfileRow[]> {
  const args = { source_id: 'alpha' };
  const methods = fixtureMethods(snapshot);
  const stub: Methods = { requests: { 'tools/call': () => ({ result: {} }) }, notifications: methods.notifications };
  const request = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: readSourceContract.name, arguments: args } };
  const requestLine = encodeLine(request);
  const line = requestLine.subarray(0, requestLine.byteLength - 1);
  const answered = answerLine(line, methods);
  if (!answered.answer) throw new Error('profile: the server did not answer the request');
  const responseLine = answerBytes(answered);
  const decoded = new InboundReader(LIMITS.mcpLineBytes).push(responseLine).messages[0]?.message;
  if (decoded?.type !== 'result') throw new Error('profile: the response did not decode as a result');
  const reply = { id: 7, requestBytes: requestLine.byteLength, responseBytes: responseLine.byteLength, answer: { result: decoded.message.result } };
  const checked = interpretCall(READ_SOURCE_EXPECTED, reply);
  if (!checked.ok) throw new Error(`profile: ${checked.message}`);
  const data = checked.value.structured as ReadSourceResult;
  const responseText = new TextDecoder().decode(responseLine.subarray(0, responseLine.byteLength - 1));
  const handler = methods.requests['tools/call']!;
  const sink = pipeSink();
  try {
    const us = {
      hostValidate: time(() => validateArguments(readSourceContract.input, args), runs),
      encode: time(() => encodeLine(request), runs),
      pipeRequest: await timeAsync(() => sink.write(requestLine), runs),
      serverDecode: time(() => answerLine(line, stub), runs),
      serverValidate: time(() => validateArguments(readSourceContract.input, args), runs),
      handler: time(() => handler(request.params), runs),
      serverEncode: time(() => answerBytes(answered), runs),
      pipeResponse: await timeAsync(() => sink.write(responseLine), runs),
      clientDecode: time(() => new InboundReader(LIMITS.mcpLineBytes).push(responseLine), runs),
      rawChecks: time(() => rawFacts(responseText), runs),
      shape: time(() => interpretCall({ ...READ_SOURCE_EXPECTED, textAgrees: () => true }, reply), runs),
      validate: time(() => interpretCall(READ_SOURCE_EXPECTED, reply), runs),
      snapshot: time(() => checkAgainstSnapshot(snapshot, 'alpha', data), runs),
    };
    const rows: ProfileRow[] = [
      { part: 'host: argument validation (valibot)', us: us.hostValidate },
      { part: 'client encode (JSON + UTF-8)', us: us.encode },
      { part: 'pipe write, request', us: us.pipeRequest },
      { part: 'server decode (UTF-8, JSON, envelope)', us: us.serverDecode },
      { part: 'server argument validation', us: us.serverValidate },
      { part: 'server handler (cached result per source), by difference', us: Math.max(0, us.handler - us.serverValidate) },
      { part: 'server encode (id spliced into the serialized result)', us: us.serverEncode },
      { part: 'pipe write, response', us: us.pipeResponse },
      { part: 'client decode (framing, UTF-8, JSON, raw-text checks, envelope), less the row below', us: Math.max(0, us.clientDecode - us.rawChecks) },
      { part: 'client raw-text checks (a key twice in one object, the id as written)', us: us.rawChecks },
      { part: 'client validate (result shape, contract schema)', us: us.shape },
      { part: 'client text agreement (text = JSON.stringify), by difference', us: Math.max(0, us.validate - us.shape) },
      { part: 'snapshot comparison (claims vs the snapshot\'s own hash)', us: us.snapshot },
    ];
    const sum = rows.reduce((total, row) => total + row.us, 0);
    const round = (x: number) => Math.round(x * 10) / 10;
    return [
      ...rows.map((row) => ({ ...row, us: round(row.us) })),
      { part: 'sum of the parts', us: round(sum) },
      { part: 'measured round trip (caplab tool)', us: round(roundTripUs) },
      { part: 'remainder: pipe wake-ups, both event loops', us: round(roundTripUs - sum) },
    ];
  } finally {
    await sink.close();
  }
}
