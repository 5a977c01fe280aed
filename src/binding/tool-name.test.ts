import { expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { MODEL_TOOL_NAME, modelToolName, qualifiedName, TOOL_NAME_RULE } from './tool-name.ts';

/** The suffix computed independently of the code under test: node's sha256 over the UTF-8 bytes. */
const hex8 = (name: string): string => createHash('sha256').update(Buffer.from(name, 'utf8')).digest('hex').slice(0, 8);

test('qualifiedName is mcp__<key>__<tool>; the rule names its version', () => {
  expect(qualifiedName('everything', 'get-sum')).toBe('mcp__everything__get-sum');
  expect(TOOL_NAME_RULE).toBe('caplab.tool-name/1');
});

test('a name the Messages API accepts is kept as it is, up to 64 characters', () => {
  for (const name of ['read_source', 'mcp__everything__get-sum', 'A-z_0-9', 'x', 'a'.repeat(64)]) expect(modelToolName(name)).toBe(name);
});

test('a 65-character name is cut to 55 and gets _ and 8 hex of its sha256: 64 characters', () => {
  const full = `mcp__everything__${'t'.repeat(48)}`;
  expect(full.length).toBe(65);
  const model = modelToolName(full);
  expect(model).toBe(`${full.slice(0, 55)}_${hex8(full)}`);
  expect(model.length).toBe(64);
});

test('other characters become _ one per code point, then the suffix of the full name; the rest is kept', () => {
  expect(modelToolName('mcp__notes__read.file')).toBe(`mcp__notes__read_file_${hex8('mcp__notes__read.file')}`);
  expect(modelToolName('mcp__my server__a b')).toBe(`mcp__my_server__a_b_${hex8('mcp__my server__a b')}`);
  // A surrogate pair is one character; é is one; the hash is of the UTF-8 bytes.
  expect(modelToolName('t😀é')).toBe(`t___${hex8('t😀é')}`);
});

test('names differing only in a replaced character stay apart (the hash is of the full name)', () => {
  const dotted = modelToolName('mcp__a__x.y');
  const spaced = modelToolName('mcp__a__x y');
  expect(dotted.slice(0, -9)).toBe(spaced.slice(0, -9));
  expect(dotted).not.toBe(spaced);
});

test('an empty name is rewritten like any refused one: _ and the hash of the empty string', () => {
  expect(modelToolName('')).toBe('_e3b0c442');
});

test('whatever the input, the model name conforms and is the same every time', () => {
  const inputs = ['', '.', 'x'.repeat(70), `${'é'.repeat(70)}`, '\u0000\n\t', 'a'.repeat(64) + '.', 'mcp__k__' + '\ud800', '-'.repeat(65)];
  for (const full of inputs) {
    const model = modelToolName(full);
    expect({ full, ok: MODEL_TOOL_NAME.test(model), length: model.length <= 64 }).toEqual({ full, ok: true, length: true });
    expect(modelToolName(full)).toBe(model);
  }
  // A 70-character non-ASCII name: 55 replaced characters, then the suffix.
  expect(modelToolName('é'.repeat(70))).toBe(`${'_'.repeat(55)}_${hex8('é'.repeat(70))}`);
});
