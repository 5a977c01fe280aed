import { describe, expect, test } from 'bun:test';
import { fail, LIMITS, ok, type SchemaValidator } from '../contract/index.ts';
import { configuredContract, CONTENT_RESULT, descriptionCut, readListedEntry, type CompileListed } from './configured-tool.ts';

/** A compiler that accepts every schema, with a validator that accepts every value: what the contract does with a compiled schema is under test, not Ajv. */
const anyCompile: CompileListed = (schema) => ok({ kind: 'json-schema', jsonSchema: schema as SchemaValidator['jsonSchema'], validate: () => [] });

const entry = (extra: Record<string, unknown> = {}) => ({ name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { text: { type: 'string', default: 'hi' } } }, ...extra });

describe('readListedEntry', () => {
  test.each([
    ['not an object', 'x'],
    ['no name', { inputSchema: { type: 'object' } }],
    ['an empty name', { name: '', inputSchema: { type: 'object' } }],
    ['no inputSchema', { name: 'a' }],
    ['a non-object inputSchema', { name: 'a', inputSchema: { type: 'string' } }],
    ['a description that is not text', { name: 'a', description: 3, inputSchema: { type: 'object' } }],
    ['an array outputSchema', { name: 'a', inputSchema: { type: 'object' }, outputSchema: [] }],
    ['annotations that are not an object', { name: 'a', inputSchema: { type: 'object' }, annotations: 'readOnly' }],
  ])('%s is protocol/malformed_tool', (_, listed) => {
    const read = readListedEntry(listed);
    expect(read.ok ? undefined : `${read.class}/${read.kind}`).toBe('protocol/malformed_tool');
  });

  test('a well-formed entry is read as given', () => {
    const read = readListedEntry(entry({ annotations: { readOnlyHint: true } }));
    expect(read.ok && read.value).toEqual({ ...entry(), annotations: { readOnlyHint: true } });
  });
});

describe('configuredContract', () => {
  test('annotations are hints only: external, never read-only, idempotent or concurrency-safe', () => {
    const read = readListedEntry(entry({ annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false } }));
    const made = read.ok ? configuredContract('srv', read.value, anyCompile, 5_000) : read;
    if (!made.ok) throw new Error(made.message);
    const { contract } = made.value;
    expect([contract.effect, contract.readOnly, contract.idempotent, contract.concurrencySafe]).toEqual(['external', false, false, false]);
    expect((contract as { hints?: unknown }).hints).toEqual({ readOnlyHint: true, idempotentHint: true, destructiveHint: false });
    expect(contract.limits).toEqual({ timeoutMs: 5_000, maxResultBytes: LIMITS.mcpResultBytes });
  });

  test('without an outputSchema the result is `{ content }`; with one, its validator', () => {
    const bare = readListedEntry(entry());
    const plain = bare.ok ? configuredContract('srv', bare.value, anyCompile, 1) : bare;
    expect(plain.ok && (plain.value.contract.result as unknown)).toBe(CONTENT_RESULT);
    expect(plain.ok && plain.value.output).toBeUndefined();
    const read = readListedEntry(entry({ outputSchema: { type: 'object' } }));
    const typed = read.ok ? configuredContract('srv', read.value, anyCompile, 1) : read;
    expect(typed.ok && typed.value.output?.jsonSchema).toEqual({ type: 'object' });
  });

  test('a schema that does not compile leaves the tool unbound with the compiler\'s failure', () => {
    const refuse: CompileListed = () => fail('protocol', 'malformed_tool', 'no');
    const read = readListedEntry(entry());
    const made = read.ok ? configuredContract('srv', read.value, refuse, 1) : read;
    expect(made.ok ? undefined : made.message).toBe('no');
  });

  test('another definition under the same name is another contract version', () => {
    const a = readListedEntry(entry());
    const b = readListedEntry(entry({ description: 'Echoes, differently.' }));
    const va = a.ok && configuredContract('s', a.value, anyCompile, 1);
    const vb = b.ok && configuredContract('s', b.value, anyCompile, 1);
    expect(va && va.ok && vb && vb.ok && va.value.contract.version !== vb.value.contract.version).toBe(true);
  });
});

describe('CONTENT_RESULT', () => {
  test('takes `{ content: [...] }` and names what else is wrong', () => {
    expect(CONTENT_RESULT.validate({ content: [] })).toEqual([]);
    expect(CONTENT_RESULT.validate({ content: 'x', extra: 1 }).map((i) => `${i.keyword} ${i.path}`)).toEqual(['additionalProperties /extra', 'type /content']);
    expect(CONTENT_RESULT.validate(null).map((i) => i.keyword)).toEqual(['type']);
  });
});

describe('descriptionCut', () => {
  test('a description within the limit is unchanged', () => {
    expect(descriptionCut('short')).toBe('short');
  });

  test('a longer one is cut on a character to the limit and says how long it was', () => {
    const long = '語'.repeat(LIMITS.toolDescriptionBytes);
    const cut = descriptionCut(long);
    expect(new TextEncoder().encode(cut).byteLength).toBeLessThanOrEqual(LIMITS.toolDescriptionBytes);
    expect(cut.endsWith(`\n[description cut: ${3 * LIMITS.toolDescriptionBytes} bytes]`)).toBe(true);
    expect(cut.startsWith('語語')).toBe(true);
  });
});
