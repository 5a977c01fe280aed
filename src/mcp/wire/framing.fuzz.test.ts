import { describe, expect, test } from 'bun:test';
import { LineSplitter } from './framing.ts';
import { InboundReader, type InboundLine } from './inbound.ts';
import { decodeLine, encodeLine } from './messages.ts';
import { cuts, fuzzSeed, insideCharacters, randomText, rng, split, type Rng } from './testing/fuzz.ts';

/**
 * Fuzzes the client's inbound side (LineSplitter → decodeLine, as
 * `InboundReader` composes them for `StdioTransport`): 11,000 seeded cases per
 * run. Reproduce a failure with CAPLAB_FUZZ_SEED=<seed named in it>.
 */
const SEED = fuzzSeed();
const BIG = 1 << 20;
const LINE_KINDS = ['encoding', 'framing', 'not_jsonrpc'];
const utf8 = new TextEncoder();

const randomId = (r: Rng): string | number => (r.chance(0.5) ? r.int(1_000_000) : `id-${randomText(r, 4)}`);

/** A message `decodeLine` accepts, with text that stresses UTF-8 and JSON escapes. */
function randomMessage(r: Rng): Record<string, unknown> {
  switch (r.int(4)) {
    case 0:
      return { jsonrpc: '2.0', id: randomId(r), result: { content: [{ type: 'text', text: randomText(r) }], isError: r.chance(0.5) } };
    case 1:
      return { jsonrpc: '2.0', id: randomId(r), error: { code: -32000 - r.int(700), message: randomText(r) } };
    case 2:
      return { jsonrpc: '2.0', id: randomId(r), method: 'ping', params: { note: randomText(r) } };
    default:
      return { jsonrpc: '2.0', method: `notifications/${randomText(r, 3)}`, params: {} };
  }
}

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.byteLength;
  }
  return all;
};

/** Cut points: random ones, and in half the cases every one inside a multi-byte character. */
function cutPoints(r: Rng, stream: Uint8Array): number[] {
  const inside = insideCharacters(stream);
  if (inside.length > 0 && r.chance(0.5)) return [...new Set(Array.from({ length: 1 + r.int(6) }, () => r.pick(inside)))].sort((a, b) => a - b);
  return cuts(r, stream.byteLength, r.int(12));
}

function readAll(reader: InboundReader, pieces: readonly Uint8Array[]): { messages: InboundLine[]; failure?: { class: string; kind: string } } {
  const messages: InboundLine[] = [];
  for (const piece of pieces) {
    const pushed = reader.push(piece);
    messages.push(...pushed.messages);
    if (pushed.failure) return { messages, failure: pushed.failure };
  }
  return { messages };
}

const because = (seed: number, index: number): string => `CAPLAB_FUZZ_SEED=${seed}, case ${index}`;

describe(`framing fuzz (seed ${SEED})`, () => {
  test('4,000 valid streams cut anywhere, inside UTF-8 characters too, arrive byte-exact', () => {
    const r = rng(SEED);
    for (let index = 0; index < 4_000; index++) {
      const messages = Array.from({ length: 1 + r.int(8) }, () => randomMessage(r));
      const lines = messages.map((message) => encodeLine(message));
      const stream = concat(lines);
      const pieces = split(stream, cutPoints(r, stream));
      const splitter = new LineSplitter(BIG);
      const seen: Uint8Array[] = [];
      for (const piece of pieces) {
        const pushed = splitter.push(piece);
        if (!pushed.ok) throw new Error(`${because(SEED, index)}: ${pushed.message}`);
        seen.push(...pushed.value);
      }
      expect({ at: because(SEED, index), lines: seen.map((line) => Buffer.from(line).toString('hex')), pending: splitter.pendingBytes }).toEqual({
        at: because(SEED, index),
        lines: lines.map((line) => Buffer.from(line.subarray(0, -1)).toString('hex')),
        pending: 0,
      });
      const read = readAll(new InboundReader(BIG), pieces);
      expect({ at: because(SEED, index), failure: read.failure, messages: read.messages.map((m): unknown => m.message.message), bytes: read.messages.map((m) => m.lineBytes) }).toEqual({
        at: because(SEED, index),
        failure: undefined,
        messages,
        bytes: lines.map((line) => line.byteLength),
      });
    }
  });

  test('2,000 streams truncated at EOF deliver every whole line and hold the rest as pending', () => {
    const r = rng(SEED + 1);
    for (let index = 0; index < 2_000; index++) {
      const messages = Array.from({ length: 1 + r.int(5) }, () => randomMessage(r));
      const lines = messages.map((message) => encodeLine(message));
      const last = lines.at(-1)!;
      const kept = r.int(last.byteLength - 1) + 1; // at least one byte, never the newline
      const stream = concat([...lines.slice(0, -1), last.subarray(0, kept)]);
      const reader = new InboundReader(BIG);
      const read = readAll(reader, split(stream, cutPoints(r, stream)));
      expect({ at: because(SEED + 1, index), failure: read.failure, messages: read.messages.map((m): unknown => m.message.message), pending: reader.pendingBytes }).toEqual({
        at: because(SEED + 1, index),
        failure: undefined,
        messages: messages.slice(0, -1),
        pending: kept,
      });
    }
  });

  test('2,000 garbage streams never throw, and every failure is classified and final', () => {
    const r = rng(SEED + 2);
    const kinds = new Set<string>();
    for (let index = 0; index < 2_000; index++) {
      const parts: Uint8Array[] = [];
      for (let i = 0, n = 1 + r.int(6); i < n; i++) {
        if (r.chance(0.3)) parts.push(encodeLine(randomMessage(r)));
        else if (r.chance(0.1)) parts.push(encodeLine(r.pick<Record<string, unknown>>([{}, { jsonrpc: '1.0', id: 1, result: {} }, { id: null, result: 1 }])));
        else parts.push(r.bytes(r.int(80)), ...(r.chance(0.7) ? [Uint8Array.of(0x0a)] : []));
      }
      const stream = concat(parts);
      const reader = new InboundReader(r.chance(0.2) ? 32 + r.int(64) : BIG);
      const read = readAll(reader, split(stream, cutPoints(r, stream)));
      if (read.failure) {
        kinds.add(read.failure.kind);
        expect({ at: because(SEED + 2, index), class: read.failure.class, known: [...LINE_KINDS, 'too_large'].includes(read.failure.kind) }).toEqual({
          at: because(SEED + 2, index),
          class: 'protocol',
          known: true,
        });
        // Once failed, always failed: the stream cannot be resynchronised.
        expect(reader.push(encodeLine(randomMessage(r)))).toEqual({ messages: [], failure: read.failure as never });
      }
    }
    expect([...kinds].sort()).toEqual(['encoding', 'framing', 'not_jsonrpc', 'too_large']);
  });

  test('2,000 mutated valid lines decode or are classified, never throw', () => {
    const r = rng(SEED + 3);
    const seen = new Set<string>();
    for (let index = 0; index < 2_000; index++) {
      const line = Array.from(encodeLine(randomMessage(r)).subarray(0, -1));
      for (let m = 0, n = 1 + r.int(3); m < n; m++) {
        const at = r.int(line.length + 1);
        const how = r.int(4);
        if (how === 0) line[at] = r.int(256);
        else if (how === 1) line.splice(at, 1);
        else if (how === 2) line.splice(at, 0, r.int(256));
        else line.splice(at, 0, ...utf8.encode(r.pick(['茶', '😀', 'é'])).subarray(0, 1 + r.int(2)));
      }
      const decoded = decodeLine(Uint8Array.from(line.filter((byte) => byte !== 0x0a)));
      const kind = decoded.ok ? 'ok' : `${decoded.class}/${decoded.kind}`;
      seen.add(kind);
      expect({ at: because(SEED + 3, index), known: ['ok', ...LINE_KINDS.map((k) => `protocol/${k}`)].includes(kind) }).toEqual({ at: because(SEED + 3, index), known: true });
    }
    // The mutations reach every class, so the fuzz is not stuck on one path.
    expect([...seen].sort()).toEqual(['ok', 'protocol/encoding', 'protocol/framing', 'protocol/not_jsonrpc']);
  });

  test('1,000 streams with an over-size line fail too_large before its newline, after exact earlier lines', () => {
    const r = rng(SEED + 4);
    for (let index = 0; index < 1_000; index++) {
      const cap = 8 + r.int(200);
      const before = Array.from({ length: r.int(5) }, () => Uint8Array.from({ length: r.int(cap + 1) }, () => 0x61 + r.int(26)));
      const over = Uint8Array.from({ length: cap + 1 + r.int(cap) }, () => 0x61 + r.int(26)); // no newline: it never ends
      const stream = concat([...before.flatMap((line) => [line, Uint8Array.of(0x0a)]), over]);
      const splitter = new LineSplitter(cap);
      const seen: string[] = [];
      let failure: { kind: string } | undefined;
      for (const piece of split(stream, cuts(r, stream.byteLength, r.int(10)))) {
        const pushed = splitter.push(piece);
        if (!pushed.ok) {
          failure = pushed;
          break;
        }
        seen.push(...pushed.value.map((line) => Buffer.from(line).toString()));
      }
      const expected = before.map((line) => Buffer.from(line).toString());
      expect({ at: because(SEED + 4, index), kind: failure?.kind, prefix: expected.slice(0, seen.length) }).toEqual({
        at: because(SEED + 4, index),
        kind: 'too_large',
        prefix: seen,
      });
      expect(splitter.push(Uint8Array.of(0x61, 0x0a))).toMatchObject({ ok: false, kind: 'too_large' });
    }
  });
});
