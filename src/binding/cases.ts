import type { JsonSchema } from '../contract/index.ts';
import { codePointLength } from '../contract/index.ts';
import { MISSING, setOwn } from './missing.ts';

/**
 * Seeded generation of contract arguments for property tests (test support;
 * not exported from the folder). It reads the contract's exported JSON
 * Schema, not the strict plan, so it shares no code with the converter it tests.
 */

/** mulberry32: a small 32-bit PRNG; the same seed gives the same sequence everywhere. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How each optional or nullable field was filled, by path: missing / null / "" / value. */
export type Coverage = Map<string, Set<'missing' | 'null' | 'empty' | 'value'>>;

// "" and "null" on purpose: an empty string and the text null are values, not absences.
const STRINGS = ['', 'a', 'null', 'keep', ' ', 'hello world', '中文摘录，含全角标点。', 'emoji 😀 astral', 'x'.repeat(40)];
const EMAILS = ['a@example.com', 'first.last@test.org'];

function pick<T>(rng: () => number, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new TypeError('pick: empty list');
  return item;
}

function note(coverage: Coverage, path: string, value: unknown): void {
  const kind = value === MISSING ? 'missing' : value === null ? 'null' : value === '' ? 'empty' : 'value';
  const seen = coverage.get(path) ?? new Set();
  seen.add(kind);
  coverage.set(path, seen);
}

function generateString(schema: JsonSchema, rng: () => number): string {
  if (schema['format'] === 'email') return pick(rng, EMAILS);
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
  const fitting = STRINGS.filter((text) => codePointLength(text) >= min && codePointLength(text) <= max);
  return pick(rng, fitting.length > 0 ? fitting : ['x'.repeat(min)]);
}

function generate(schema: JsonSchema, rng: () => number, path: string, coverage: Coverage): unknown {
  if (Array.isArray(schema['anyOf'])) {
    const members = schema['anyOf'] as JsonSchema[];
    const hasNull = members.some((member) => member['type'] === 'null');
    const value = generate(pick(rng, members.filter((member) => member['type'] !== 'null')), rng, path, coverage);
    return hasNull && rng() < 0.34 ? null : value;
  }
  if (Array.isArray(schema['enum'])) return pick(rng, schema['enum']);
  if ('const' in schema) return schema['const'];
  switch (schema['type']) {
    case 'string':
      return generateString(schema, rng);
    case 'integer':
      return (typeof schema['minimum'] === 'number' ? schema['minimum'] : -50) + Math.floor(rng() * 100);
    case 'number':
      return Math.round(rng() * 1000) / 8;
    case 'boolean':
      return rng() < 0.5;
    case 'array': {
      const items = schema['items'] as JsonSchema;
      return Array.from({ length: Math.floor(rng() * 4) }, () => generate(items, rng, `${path}[]`, coverage));
    }
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
      const required = (schema['required'] ?? []) as string[];
      const out: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(properties)) {
        const where = path === '' ? name : `${path}.${name}`;
        const optional = !required.includes(name);
        const value = optional && rng() < 0.34 ? MISSING : generate(sub, rng, where, coverage);
        note(coverage, where, value);
        if (value !== MISSING) setOwn(out, name, value);
      }
      return out;
    }
    default:
      throw new TypeError(`generate: no generator for ${JSON.stringify(schema)} at ${path}`);
  }
}

/**
 * Generates `count` argument objects for a contract input schema.
 *
 * @returns The cases and, per optional/nullable field path, which of missing / null / "" / value occurred.
 */
export function generateCases(schema: JsonSchema, seed: number, count: number): { cases: unknown[]; coverage: Coverage } {
  const rng = mulberry32(seed);
  const coverage: Coverage = new Map();
  const cases = Array.from({ length: count }, () => generate(schema, rng, '', coverage));
  return { cases, coverage };
}
