import { describe, expect, test } from 'bun:test';
import { LineSplitter } from './framing.ts';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (line: Uint8Array): string => new TextDecoder('utf-8', { fatal: true }).decode(line);

describe('LineSplitter', () => {
  test('splits on \\n only, keeping \\r and empty lines as line content', () => {
    const splitter = new LineSplitter(100);
    const lines = splitter.push(bytes('a\r\n\nb\n'));
    expect(lines.ok && lines.value.map(text)).toEqual(['a\r', '', 'b']);
    expect(splitter.pendingBytes).toBe(0);
  });

  test('reassembles a CJK line delivered one byte per chunk, byte-exact', () => {
    const line = '{"t":"茶馆里的账本 — 𠀋"}';
    const splitter = new LineSplitter(1024);
    const seen: Uint8Array[] = [];
    for (const byte of bytes(`${line}\n`)) {
      const pushed = splitter.push(Uint8Array.of(byte));
      if (!pushed.ok) throw new Error(pushed.message);
      seen.push(...pushed.value);
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual(bytes(line));
  });

  test('keeps an unfinished line pending across chunks', () => {
    const splitter = new LineSplitter(100);
    expect(splitter.push(bytes('{"a"'))).toEqual({ ok: true, value: [] });
    expect(splitter.pendingBytes).toBe(4);
    const done = splitter.push(bytes(':1}\n{"b'));
    expect(done.ok && done.value.map(text)).toEqual(['{"a":1}']);
    expect(splitter.pendingBytes).toBe(3);
  });

  test('does not alias the caller chunk buffer', () => {
    const splitter = new LineSplitter(100);
    const chunk = bytes('abc');
    splitter.push(chunk);
    chunk.fill(0x21);
    const done = splitter.push(bytes('\n'));
    expect(done.ok && text(done.value[0]!)).toBe('abc');
  });

  test('a line exactly at the cap passes; one byte more is too_large before its newline arrives', () => {
    const atCap = new LineSplitter(4).push(bytes('abcd\n'));
    expect(atCap.ok && atCap.value.map(text)).toEqual(['abcd']);
    const splitter = new LineSplitter(4);
    expect(splitter.push(bytes('abc')).ok).toBe(true);
    const over = splitter.push(bytes('de'));
    expect(over).toMatchObject({ ok: false, class: 'protocol', kind: 'too_large' });
  });

  test('stays failed after the first failure', () => {
    const splitter = new LineSplitter(2);
    expect(splitter.push(bytes('abc\n'))).toMatchObject({ ok: false, kind: 'too_large' });
    expect(splitter.push(bytes('a\n'))).toMatchObject({ ok: false, kind: 'too_large' });
  });

  test('refuses a non-positive cap (programmer error)', () => {
    expect(() => new LineSplitter(0)).toThrow(RangeError);
  });
});
