import { expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { serverKey, serverKeys } from './server-keys.ts';

const hex8 = (name: string): string => createHash('sha256').update(Buffer.from(name, 'utf8')).digest('hex').slice(0, 8);

test('a key of [A-Za-z0-9_-]+ that parses one way is kept as written', () => {
  for (const name of ['everything', 'caplab-fixture', 'a_b', 'A-9', '_lead', 'x']) expect(serverKey(name)).toEqual({ name, key: name, mapped: false });
});

test('dots, spaces, non-ASCII, __ and a final _ are mapped: replaced, runs of _ made one, _ and 8 hex of the name', () => {
  const rows: [string, string][] = [
    ['my.server', 'my_server'],
    ['my server', 'my_server'],
    ['a__b', 'a_b'],
    ['a._b', 'a_b'],
    ['trailing_', 'trailing'],
    ['dot.', 'dot'],
    ['ünï', '_n'],
    ['', ''],
  ];
  for (const [name, stem] of rows) expect(serverKey(name)).toEqual({ name, key: `${stem}_${hex8(name)}`, mapped: true });
});

test('a mapped key parses one way and is cut: no __, no final _, at most 64 characters', () => {
  for (const name of ['a'.repeat(54) + '..b', '.'.repeat(80), 'x'.repeat(100) + ' ', 'é'.repeat(70)]) {
    const { key } = serverKey(name);
    expect({ name, key, fine: !key.includes('__') && !key.endsWith('_') && key.length <= 64 && /^[A-Za-z0-9_-]+$/.test(key) }).toEqual({ name, key, fine: true });
  }
});

test('serverKeys keeps the order given; my.server and my server get distinct keys', () => {
  const keys = serverKeys(['notes', 'my.server', 'my server']);
  if (!keys.ok) throw new Error(keys.message);
  expect(keys.value.map((k) => [k.name, k.mapped])).toEqual([['notes', false], ['my.server', true], ['my server', true]]);
  expect(new Set(keys.value.map((k) => k.key)).size).toBe(3);
});

test('a mapped key equal to another written one is bad_server_key, naming both', () => {
  const mapped = serverKey('my.server').key;
  for (const names of [['my.server', mapped], [mapped, 'my.server']]) {
    const keys = serverKeys(names);
    expect(keys.ok ? 'kept' : [keys.class, keys.kind]).toEqual(['invalid_arguments', 'bad_server_key']);
    if (!keys.ok) {
      expect(keys.message).toContain('"my.server" (mapped to');
      expect(keys.message).toContain(JSON.stringify(mapped));
    }
  }
  const twice = serverKeys(['a', 'a']);
  expect(twice.ok ? 'kept' : twice.message).toBe('servers "a" and "a" both get the key "a"; rename one in the config');
});
