import { expect, test } from 'bun:test';
import { LIMITS } from '../contract/index.ts';
import { STAGES } from '../excerpt/stages.ts';
import { catalog, catalogLine, parsePackage, type Package } from './index.ts';

function pkg(folder: string, front: string): Package {
  const bytes = new TextEncoder().encode(`---\n${front}\n---\nBody of ${folder}.\n`);
  const parsed = parsePackage(folder, { kind: 'embedded' }, (rel) => (rel === 'SKILL.md' ? bytes : undefined), STAGES);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

test('the catalog lists only packages whose status is listed, with when_to_use when they have one', () => {
  const packages = [
    pkg('listed', 'description: Listed.\nwhen_to_use: When asked.'),
    pkg('bare', 'description: Bare.'),
    pkg('hidden', 'description: Hidden.\ndisable-model-invocation: true'),
    pkg('held', 'description: Held.\npaths: docs/**'),
    pkg('silent', 'name: silent'),
  ];
  expect(catalog(packages)).toEqual([
    { name: 'listed', description: 'Listed.', whenToUse: 'When asked.' },
    { name: 'bare', description: 'Bare.' },
  ]);
});

test('a catalog line is `- name: description` with when_to_use after; past the limit it is cut there, ending in …', () => {
  expect(catalogLine({ name: 'a', description: 'D.', whenToUse: 'W.' })).toBe('- a: D. When to use: W.');
  expect(catalogLine({ name: 'a', description: 'D.' })).toBe('- a: D.');
  const fits = { name: 'a', description: 'x'.repeat(LIMITS.skillCatalogEntryChars - 5) };
  expect(catalogLine(fits)).toBe(`- a: ${fits.description}`);
  // Characters are code points: an astral one counts once and is never split.
  const long = catalogLine({ name: 'a', description: '😀'.repeat(LIMITS.skillCatalogEntryChars) });
  expect([...long].length).toBe(LIMITS.skillCatalogEntryChars);
  expect(long.endsWith('😀…')).toBe(true);
});
