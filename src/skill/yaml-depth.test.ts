import { expect, test } from 'bun:test';
import { LIMITS } from '../contract/index.ts';
import { STAGES } from '../excerpt/stages.ts';
import { parseFrontmatter, parsePackage } from './index.ts';
import { yamlDepthBound } from './yaml-depth.ts';

/** Nesting of a parsed value, walked without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

const N = 6000;
const hostile: readonly [string, string][] = [
  ['flow brackets', `name: x\nmetadata: ${'['.repeat(N)}${']'.repeat(N)}`],
  ['indentation', Array.from({ length: N }, (_, i) => `${' '.repeat(i)}k:`).join('\n')],
  ['compact sequences', `${'- '.repeat(N)}x`],
  ['an alias chain', ['a0: &a0 [x]', ...Array.from({ length: N }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}]`)].join('\n')],
  ['brackets after a multi-line quoted string', `k: ["a\n # x", ${'['.repeat(N)}${']'.repeat(N)}]`],
  ['brackets after a block scalar holding a quote', `description: |\n  say: "hello\nb: ${'['.repeat(N)}${']'.repeat(N)}`],
  // YAML breaks lines on a lone CR as on LF: the sequence is a line of its own to the parser.
  ['compact sequences after lone CR line breaks', `name: deep\rdescription: y\rextra:\r${'- '.repeat(N)}x`],
  ['indentation on lone CR lines', Array.from({ length: N }, (_, i) => `${' '.repeat(i)}k:`).join('\r')],
];

test.each(hostile)('a frontmatter nesting past the parser\'s stack (%s) is refused too_deep before parsing, never a caught overflow', (_, yaml) => {
  // The input is real: the parser itself overflows on it.
  expect(() => Bun.YAML.parse(yaml)).toThrow(RangeError);
  const parsed = parseFrontmatter(yaml, STAGES);
  expect(parsed.ok ? 'ok' : `${parsed.class}/${parsed.kind}`).toBe('invalid_arguments/too_deep');
  expect(parsed.ok ? '' : parsed.message).toContain(`(limit ${LIMITS.skillFrontmatterDepth})`);
});

/** Small documents of every construct the bound must not undercount, each checked against the parse. */
const shapes: readonly string[] = [
  'a:\n- b:\n  - c:\n    - d: [1, {e: [2]}]',
  '? [a, [b]]\n: {c: {d: 1}}',
  'a: "quoted [ not nesting"\nb: [[x]]',
  "a: 'it''s [ [ ['\nb: {c: [d]}",
  'a: &x [[1]]\nb: [*x, [*x]]\nc: {d: *x}',
  'a: |\n  [[[[ literal\nb:\n  - - - [y]',
  'k: ["a\n  b", [[c]]]',
  '- - - - a:\n        b: [1]',
  'a: # comment [[[\n  b: {c: 1}',
  'a:\r- b:\r  - c:\r    - [d]',
  'a:\r\n  b:\r    c: [1]\n    d: {e: [2]}',
];

test.each(shapes.map((s) => [s]))('the bound is never below the parsed depth: %p', (yaml) => {
  expect(yamlDepthBound(yaml)).toBeGreaterThanOrEqual(depthOf(Bun.YAML.parse(yaml)));
});

test('an ordinary frontmatter is far within the bound; the limit itself still parses', () => {
  expect(yamlDepthBound('name: demo\ndescription: "Use *.md files [see notes]"\nmetadata:\n  caplab-version: "1.0.0"')).toBeLessThanOrEqual(5);
  const atLimit = `name: x\nd: ${'['.repeat(LIMITS.skillFrontmatterDepth - 2)}${']'.repeat(LIMITS.skillFrontmatterDepth - 2)}`;
  expect(yamlDepthBound(atLimit)).toBe(LIMITS.skillFrontmatterDepth);
  // Parsed, not too_deep: `d` is an unknown field, recorded as not applied.
  const parsed = parseFrontmatter(atLimit, STAGES);
  expect(parsed.ok ? parsed.value.notApplied.map((f) => f.field) : parsed.kind).toEqual(['d']);
});

/** A small deterministic generator (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Block YAML lines for a random value: mappings, sequences (compact `- k:` and at the key's indentation), flow values. */
function blockYaml(next: () => number, depth: number, indent: number, lines: string[], head: string): void {
  const pad = ' '.repeat(indent);
  const roll = next();
  if (depth === 0 || roll < 0.2) {
    lines.push(`${head}${roll < 0.1 ? JSON.stringify([[depth], { k: [depth] }]) : 'leaf'}`);
  } else if (roll < 0.6) {
    lines.push(`${head}`.trimEnd() === '' ? '' : head.trimEnd());
    for (let i = 0; i < 2; i++) blockYaml(next, depth - 1, indent + 2, lines, `${pad}  k${i}: `);
  } else {
    // A sequence at the indentation of the key that holds it, its items compact mappings.
    if (head.trim() !== '') lines.push(head.trimEnd());
    for (let i = 0; i < 2; i++) blockYaml(next, depth - 1, indent + 2, lines, `${pad}- m${i}: `);
  }
}

test('on generated block documents the bound is never below the parsed depth', () => {
  const next = random(19);
  let checked = 0;
  let deepest = 0;
  for (let n = 0; n < 300; n++) {
    const lines: string[] = [];
    blockYaml(next, 1 + Math.floor(next() * 7), 0, lines, 'root: ');
    const yaml = lines.filter((line) => line !== '').join('\n');
    let parsed: unknown;
    try {
      parsed = Bun.YAML.parse(yaml);
    } catch {
      continue;
    }
    expect({ yaml, bound: yamlDepthBound(yaml) >= depthOf(parsed) }).toEqual({ yaml, bound: true });
    checked++;
    deepest = Math.max(deepest, depthOf(parsed));
  }
  // Most generated documents are valid YAML and some nest deeply, so the comparison really ran.
  expect(checked).toBeGreaterThan(200);
  expect(deepest).toBeGreaterThan(10);
});

test('a SKILL.md whose frontmatter breaks lines with lone CRs is bounded like any other: too_deep, not a caught overflow', () => {
  const skill = new TextEncoder().encode(`---\nname: deep\rdescription: y\rextra:\r${'- '.repeat(5000)}x\n---\nbody\n`);
  const parsed = parsePackage('deep', { kind: 'embedded' }, (rel) => (rel === 'SKILL.md' ? skill : undefined), STAGES);
  expect(parsed.ok ? 'ok' : `${parsed.class}/${parsed.kind}`).toBe('invalid_arguments/too_deep');
  expect(parsed.ok ? '' : parsed.message).not.toContain('call stack');
});
