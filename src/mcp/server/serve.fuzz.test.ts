import { expect, test } from 'bun:test';
import { PassThrough, Writable } from 'node:stream';
import { fixtureMethods } from '../../excerpt/server/index.ts';
import { fixtureSnapshot } from '../../excerpt/sources.ts';
import { answerLine, RPC_ERROR } from './serve-rpc.ts';
import { serveStdio } from './serve-stdio.ts';
import { cuts, fuzzSeed, randomText, rng, split, type Rng } from '../wire/testing/fuzz.ts';

/**
 * Fuzzes `caplab serve` in-process through its injectable streams: 300
 * seeded sessions (about 7,000 lines) of valid requests, bad params,
 * responses, notifications, garbage, invalid UTF-8, mutations, deep nesting,
 * an over-size line or a line cut off by EOF, fed in random chunk cuts.
 */
const SEED = fuzzSeed();
const CAP = 4096;
const methods = fixtureMethods(fixtureSnapshot());
const utf8 = new TextEncoder();
const KNOWN_NOTIFICATIONS = ['notifications/initialized', 'notifications/cancelled'];

interface Line {
  readonly bytes: Uint8Array;
  /** The id the answer must carry (a fresh one per request line), or null when the line has none that can be read. */
  readonly id?: string | null;
  /** An intact known notification: acted on, no answer and no note. */
  readonly silent?: boolean;
}

const json = (value: unknown): Uint8Array => utf8.encode(JSON.stringify(value));

function requestLine(r: Rng, id: string): Line {
  const params = r.pick<unknown>([
    { protocolVersion: r.pick(['2025-06-18', '2024-11-05', 7]), capabilities: {}, clientInfo: { name: randomText(r), version: '1' } },
    { name: 'read_source', arguments: { source_id: r.pick(['alpha', 'beta', 'gamma', randomText(r)]) } },
    { name: 'read_source', arguments: r.pick<unknown>(['alpha', null, ['alpha'], 1e400, { source_id: 'alpha', extra: randomText(r) }]) },
    { name: r.pick(['READ_SOURCE', 'tools/call', '', randomText(r)]), arguments: {} },
    { arguments: 'alpha' },
    { cursor: r.pick<unknown>(['x', 5]) },
    undefined,
  ]);
  const method = r.pick(['initialize', 'ping', 'tools/list', 'tools/call', 'tools/call', 'resources/list', randomText(r, 4)]);
  return { bytes: json({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }), id };
}

function mutate(r: Rng, bytes: Uint8Array): Uint8Array {
  const line = Array.from(bytes);
  for (let m = 0, n = 1 + r.int(3); m < n; m++) {
    const at = r.int(line.length + 1);
    if (r.chance(0.5)) line[at] = r.int(256);
    else line.splice(at, 0, ...utf8.encode(r.pick(['茶', '😀', '"', '}'])).subarray(0, 1 + r.int(2)));
  }
  return Uint8Array.from(line.filter((byte) => byte !== 0x0a));
}

function randomLine(r: Rng, id: string): Line {
  switch (r.int(10)) {
    case 0:
    case 1:
    case 2:
      return requestLine(r, id);
    case 3: {
      const method = r.pick([...KNOWN_NOTIFICATIONS, `notifications/${randomText(r, 3)}`]);
      return { bytes: json({ jsonrpc: '2.0', method, params: { requestId: 1 } }), silent: KNOWN_NOTIFICATIONS.includes(method) };
    }
    case 4:
      return { bytes: json(r.pick<unknown>([{ jsonrpc: '2.0', id, result: {} }, { jsonrpc: '2.0', id, error: { code: 1, message: randomText(r) } }])) };
    case 5:
      return { bytes: r.bytes(r.int(120)).filter((byte) => byte !== 0x0a), id: null };
    case 6:
      return { bytes: mutate(r, requestLine(r, id).bytes) };
    case 7: {
      const depth = 1 + r.int(CAP / 2 - 1);
      return { bytes: utf8.encode(r.chance(0.5) ? `${'['.repeat(depth)}${']'.repeat(depth)}` : '['.repeat(depth * 2)), id: null };
    }
    case 8:
      return { bytes: utf8.encode(r.pick(['', ' ', '\r', 'null', '42', '"x"', '[]', '{}', '\uFEFF{}', randomText(r).replaceAll('\n', '')])) };
    default:
      return { bytes: json({ jsonrpc: r.pick(['2.0', '1.0']), id: r.pick<unknown>([id, null, 1.5, true, {}]), method: r.pick<unknown>(['ping', 7, null]) }) };
  }
}

async function run(stdinBytes: Uint8Array, r: Rng): Promise<{ code: number; out: string[]; err: string[] }> {
  const stdin = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sink = (into: Buffer[]) => new Writable({ write: (chunk: Buffer, _e, callback) => (into.push(Buffer.from(chunk)), callback()) });
  const exit = serveStdio({ stdin, stdout: sink(out), stderr: sink(err) }, (line) => answerLine(line, methods), { maxLineBytes: CAP, pendingOutputBytes: 2048 });
  for (const piece of split(stdinBytes, cuts(r, stdinBytes.byteLength, r.int(20)))) stdin.write(Buffer.from(piece));
  stdin.end();
  const code = await exit;
  const lines = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8').split('\n').slice(0, -1);
  return { code, out: lines(out), err: lines(err) };
}

test(`serve fuzz (seed ${SEED}): 300 sessions, every line gets exactly one answer or one stderr line, never a crash`, async () => {
  const r = rng(SEED + 10);
  let total = 0;
  const codes = new Set<number>();
  for (let session = 0; session < 300; session++) {
    const at = `CAPLAB_FUZZ_SEED=${SEED}, session ${session}`;
    const lines = Array.from({ length: 1 + r.int(40) }, (_, n) => randomLine(r, `s${session}-l${n}`));
    const oversizeAt = r.chance(0.15) ? r.int(lines.length) : -1;
    const truncated = oversizeAt === -1 && r.chance(0.15) ? r.bytes(1 + r.int(40)).filter((byte) => byte !== 0x0a) : new Uint8Array(0);
    const answered = oversizeAt === -1 ? lines : lines.slice(0, oversizeAt);
    const parts = answered.flatMap((line) => [line.bytes, Uint8Array.of(0x0a)]);
    if (oversizeAt !== -1) parts.push(utf8.encode('x'.repeat(CAP + 1 + r.int(CAP))), Uint8Array.of(0x0a), ...lines.slice(oversizeAt).map((line) => line.bytes));
    const stdinBytes = Buffer.concat([...parts, truncated]);
    const expectedOut: string[] = [];
    const expectedErr: string[] = [];
    answered.forEach((line, index) => {
      const result = answerLine(line.bytes, methods);
      // Exactly one of answer, note, or (only for an intact known notification) nothing.
      expect({ at, index, silent: !result.answer && !result.note }).toEqual({ at, index, silent: line.silent === true });
      if (result.answer) {
        const { id, error } = result.answer as { id: unknown; error?: { code: number; message: string } };
        if (line.id !== undefined) expect({ at, index, id }).toEqual({ at, index, id: line.id });
        if (error) {
          expect({ at, index, known: [RPC_ERROR.parse, RPC_ERROR.invalidRequest, RPC_ERROR.methodNotFound, RPC_ERROR.invalidParams].includes(error.code as never) }).toEqual({ at, index, known: true });
          expect({ at, index, short: !error.message.includes('\n') && error.message.length < 160 }).toEqual({ at, index, short: true });
        }
        expectedOut.push(JSON.stringify(result.answer));
      } else if (result.note) expectedErr.push(`caplab serve: line ${index + 1}: ${result.note}`);
    });
    if (oversizeAt !== -1) expectedErr.push(`caplab serve: line ${oversizeAt + 1} is longer than ${CAP} bytes; session ended`);
    else {
      if (truncated.byteLength > 0) expectedErr.push(`caplab serve: stdin ended inside an unfinished line (${truncated.byteLength} bytes); not answered`);
      expectedErr.push('caplab serve: stdin closed, exiting');
    }
    const driven = await run(stdinBytes, r);
    codes.add(driven.code);
    expect({ at, ...driven }).toEqual({ at, code: oversizeAt === -1 ? 0 : 3, out: expectedOut, err: expectedErr });
    total += lines.length;
  }
  expect(total).toBeGreaterThan(5_000);
  expect([...codes].sort()).toEqual([0, 3]);
});
