/**
 * `canonicalJson` is RFC 8785 (JCS) for every I-JSON value: the RFC's own
 * vectors (Appendix B numbers, §3.2.2.2 escapes, §3.2.3 key order), then a
 * seeded differential test against `canonicalize` (a JCS implementation by
 * one of the RFC's authors; a devDependency, test-only) over random values.
 */
import { expect, test } from 'bun:test';
import canonicalize from 'canonicalize';
import { canonicalJson } from './canonical.ts';

/** The IEEE 754 double whose 64 bits are `hex` (big-endian). */
function double(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

test('numbers: RFC 8785 Appendix B, from the IEEE 754 bits to the text', () => {
  const samples: [string, string][] = [
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ];
  expect(samples.map(([hex]) => [hex, canonicalJson(double(hex))])).toEqual(samples);
  // NaN and both infinities have no JSON form: refused, never written.
  for (const hex of ['7fffffffffffffff', '7ff0000000000000', 'fff0000000000000']) expect(() => canonicalJson(double(hex))).toThrow('non-finite');
});

test('strings: \\b \\t \\n \\f \\r, other U+0000–U+001F as lowercase \\u00xx, \\" and \\\\; nothing else escaped, not / nor U+007F', () => {
  const controls = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).join('');
  const expected = '"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f"';
  expect(canonicalJson(controls)).toBe(expected);
  expect(canonicalJson('"\\/\u007f€😀\u2028')).toBe('"\\"\\\\/\u007f€😀\u2028"');
  // The RFC's §3.2.2.2 sample: a string of every kind, as one value.
  expect(canonicalJson({ string: '\u20ac$\u000F\u000aA\'\u0042\u0022\u005c\\"/' })).toBe('{"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
});

test('key order: by UTF-16 code units (§3.2.3), not by code point', () => {
  // The RFC's sample keys: U+20AC, CR, U+FB33, "1", U+1F600, U+0080, U+00F6.
  const keys = ['\u20ac', '\r', '\ufb33', '1', '\u{1f600}', '\u0080', '\u00f6'];
  const object = Object.fromEntries(keys.map((key, i) => [key, i]));
  // Read off the text: Object.keys would put the integer-like key "1" first whatever the text says.
  expect(canonicalJson(object)).toBe('{"\\r":1,"1":3,"\u0080":5,"\u00f6":6,"\u20ac":0,"\u{1f600}":4,"\ufb33":2}');
  // By code point U+1F600 would come last, after U+FB33: its first unit, U+D83D, is what sorts.
  expect(canonicalJson({ '\ufb33': 1, '\u{1f600}': 2 })).toBe('{"\u{1f600}":2,"\ufb33":1}');
});

test('structure: no whitespace, arrays in order, nested objects sorted, literals as JSON writes them', () => {
  expect(canonicalJson({ b: [3, { z: null, a: true }], a: { d: false, c: 'x' }, '': [] })).toBe('{"":[],"a":{"c":"x","d":false},"b":[3,{"a":true,"z":null}]}');
});

/** A small fast seeded generator (mulberry32): the same values on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random well-formed strings: ASCII, controls, Latin, BMP (no lone surrogate: I-JSON) and astral code points. */
function randomString(next: () => number): string {
  const ranges: [number, number][] = [[0x20, 0x7f], [0, 0x20], [0x80, 0x800], [0x800, 0xd800], [0xe000, 0x10000], [0x10000, 0x110000]];
  let text = '';
  for (let i = Math.floor(next() * 8); i > 0; i--) {
    const [low, high] = ranges[Math.floor(next() * ranges.length)]!;
    text += String.fromCodePoint(low + Math.floor(next() * (high - low)));
  }
  return text;
}

/** Random finite doubles: any bit pattern (NaN and infinities redrawn), small integers, short decimals. */
function randomNumber(next: () => number): number {
  const kind = Math.floor(next() * 3);
  if (kind === 0) return Math.floor(next() * 2001) - 1000;
  if (kind === 1) return Math.round((next() - 0.5) * 1e6) / 10 ** Math.floor(next() * 8);
  for (;;) {
    const view = new DataView(new ArrayBuffer(8));
    view.setUint32(0, Math.floor(next() * 2 ** 32));
    view.setUint32(4, Math.floor(next() * 2 ** 32));
    const value = view.getFloat64(0);
    if (Number.isFinite(value)) return value;
  }
}

function randomValue(next: () => number, depth: number): unknown {
  const kind = Math.floor(next() * (depth > 3 ? 5 : 7));
  switch (kind) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
    case 3:
      return randomNumber(next);
    case 4:
      return randomString(next);
    case 5:
      return Array.from({ length: Math.floor(next() * 5) }, () => randomValue(next, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 6) }, () => [randomString(next), randomValue(next, depth + 1)]));
  }
}

test('differential: 10,000 seeded random I-JSON values encode exactly as canonicalize encodes them', () => {
  const next = random(8785);
  const differ: { value: unknown; ours: string; theirs: string | undefined }[] = [];
  let objects = 0;
  for (let i = 0; i < 10_000; i++) {
    const value = randomValue(next, 0);
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 1) objects++;
    const ours = canonicalJson(value);
    const theirs = canonicalize(value);
    if (ours !== theirs) differ.push({ value, ours, theirs });
  }
  expect(differ.slice(0, 3)).toEqual([]);
  // The sample is what it claims: many objects with keys to order.
  expect(objects).toBeGreaterThan(500);
});

test('the one extension: a lone surrogate (not I-JSON) is written as a lowercase \\udxxx escape, as JSON.stringify does; canonicalize refuses it', () => {
  expect(canonicalJson('a\ud800b\udfff')).toBe('"a\\ud800b\\udfff"');
  expect(canonicalJson({ '\udc00': 1 })).toBe('{"\\udc00":1}');
  expect(() => canonicalize('a\ud800b')).toThrow('Lone surrogate');
});
