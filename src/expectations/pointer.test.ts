import { describe, expect, test } from 'bun:test';
import { JSON_POINTER } from '../harness/index.ts';
import { resolvePointer } from './pointer.ts';

/** What a pointer finds, as a test reads it: the value, or `absent`. */
const at = (value: unknown, pointer: string): unknown => {
  const found = resolvePointer(value, pointer);
  return found.found ? found.value : 'absent';
};

// RFC 6901 section 5's example document, read as JSON (so `""` and `" "` are keys like any other).
const RFC = JSON.parse('{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\\\j":5,"k\\"l":6," ":7,"m~n":8}');

describe('resolvePointer (RFC 6901)', () => {
  test.each([
    ['', RFC],
    ['/foo', ['bar', 'baz']],
    ['/foo/0', 'bar'],
    ['/', 0],
    ['/a~1b', 1],
    ['/c%d', 2],
    ['/e^f', 3],
    ['/g|h', 4],
    ['/i\\j', 5],
    ['/k"l', 6],
    ['/ ', 7],
    ['/m~0n', 8],
  ])('section 5: %j finds %j', (pointer, value) => {
    expect(JSON_POINTER.test(pointer)).toBe(true);
    expect(at(RFC, pointer)).toEqual(value);
  });

  test('~01 decodes to the key ~1, not to / (decoding ~0 before ~1 would): the order the RFC requires', () => {
    expect(at({ '~1': 'tilde-one', '/': 'slash' }, '/~01')).toBe('tilde-one');
    expect(at({ '~1': 'tilde-one', '/': 'slash' }, '/~1')).toBe('slash');
  });

  test('array indexes: decimal, no leading zeros; `-` and past the end find nothing', () => {
    const doc = { list: ['a', 'b', 'c'] };
    expect(at(doc, '/list/0')).toBe('a');
    expect(at(doc, '/list/2')).toBe('c');
    expect(at(doc, '/list/3')).toBe('absent');
    expect(at(doc, '/list/01')).toBe('absent');
    expect(at(doc, '/list/00')).toBe('absent');
    expect(at(doc, '/list/-')).toBe('absent');
    expect(at(doc, '/list/-1')).toBe('absent');
    expect(at(doc, '/list/1.0')).toBe('absent');
    expect(at(doc, '/list/1e0')).toBe('absent');
    expect(at(doc, '/list/ 1')).toBe('absent');
    expect(at(doc, '/list/length')).toBe('absent');
    expect(at(doc, '/list/99999999999999999999')).toBe('absent');
  });

  test('an object key that looks like an index is a key: "01" and "-" are found in an object', () => {
    expect(at({ '01': 'x', '-': 'y' }, '/01')).toBe('x');
    expect(at({ '01': 'x', '-': 'y' }, '/-')).toBe('y');
  });

  test('own keys only: /__proto__, /constructor, /toString, /hasOwnProperty find nothing a document did not carry', () => {
    const plain = JSON.parse('{"a":1}');
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) expect(at(plain, `/${key}`)).toBe('absent');
    expect(at([1], '/constructor')).toBe('absent');
  });

  test('a document that carries __proto__ as its own key (JSON.parse keeps it) finds it', () => {
    const carried = JSON.parse('{"__proto__":{"polluted":true},"constructor":"c"}');
    expect(at(carried, '/__proto__/polluted')).toBe(true);
    expect(at(carried, '/constructor')).toBe('c');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  test('through a scalar or null finds nothing; a null or false value is found (not absent)', () => {
    const doc = { n: null, f: false, z: 0, s: 'str' };
    expect(at(doc, '/n')).toBeNull();
    expect(at(doc, '/f')).toBe(false);
    expect(at(doc, '/z')).toBe(0);
    expect(at(doc, '/n/x')).toBe('absent');
    expect(at(doc, '/s/0')).toBe('absent');
    expect(at(doc, '/s/length')).toBe('absent');
    expect(at(doc, '/z/x')).toBe('absent');
    expect(at('scalar', '/x')).toBe('absent');
    expect(at(undefined, '/x')).toBe('absent');
  });

  test('the empty key and a trailing slash: "/a/" is the key "" inside a', () => {
    expect(at({ a: { '': 'empty' } }, '/a/')).toBe('empty');
    expect(at({ a: {} }, '/a/')).toBe('absent');
  });

  test('the schema accepts exactly RFC 6901 syntax: ~ only as ~0 or ~1, a non-empty pointer starts with /', () => {
    for (const good of ['', '/', '//', '/a~0~1', '/~0', '/a/0/-']) expect(JSON_POINTER.test(good)).toBe(true);
    for (const bad of ['a', 'a/b', '/~', '/~2', '/a~', '#/a', '~0', ' /a']) expect(JSON_POINTER.test(bad)).toBe(false);
  });
});
