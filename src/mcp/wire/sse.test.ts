import { expect, test } from 'bun:test';
import { SseParser } from './sse.ts';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Every event of a stream fed in pieces of `size` bytes. */
function feed(text: string, size: number, max = 1024): { data: string[]; failure?: string } {
  const parser = new SseParser(max);
  const all = bytes(text);
  const data: string[] = [];
  for (let at = 0; at < all.byteLength; at += size) {
    const { events, failure } = parser.push(all.subarray(at, at + size));
    data.push(...events.map((event) => event.data));
    if (failure) return { data, failure: `${failure.kind}: ${failure.message}` };
  }
  return { data };
}

test('data lines gather into one event; comments, id, retry, unknown fields and non-message events are skipped; LF, CR and CRLF end lines at any split', () => {
  const stream = '\uFEFF: hello\n\nid: 7\nretry: 10\ndata: {"a":\ndata:1}\nfoo: bar\n\r\nevent: other\ndata: no\n\nevent: message\ndata: yes\r\rdata:x\r\n\r\ndata: unfinished';
  for (const size of [1, 2, 3, 7, 1000]) expect(feed(stream, size)).toEqual({ data: ['{"a":\n1}', 'yes', 'x'] });
});

test('an event over the bound is protocol/too_large, its unfinished line counted; every later push repeats it', () => {
  expect(feed(`data: ${'x'.repeat(2000)}`, 100).failure).toStartWith('too_large: an SSE event from the server passed 1024 bytes');
  expect(feed(`${'data: x\n'.repeat(200)}\n`, 64).failure).toStartWith('too_large');
  // Within the bound: many small events never add up.
  expect(feed('data: x\n\n'.repeat(500), 64).data).toHaveLength(500);
  const parser = new SseParser(8);
  expect(parser.push(bytes('data: 123456789')).failure?.kind).toBe('too_large');
  expect(parser.push(bytes('\n\n'))).toMatchObject({ events: [], failure: { kind: 'too_large' } });
});

test('invalid UTF-8 is protocol/encoding, never replaced', () => {
  const parser = new SseParser(1024);
  expect(parser.push(new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0x0a]))).toMatchObject({ events: [], failure: { class: 'protocol', kind: 'encoding' } });
});

test('an event reports the bytes it took on the stream', () => {
  expect(new SseParser(1024).push(bytes('data: ab\n\n')).events).toEqual([{ data: 'ab', bytes: 10 }]);
});
