import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS } from './limits.ts';

const UNITS: Record<string, number> = { '': 1, KiB: 1024, MiB: 1024 * 1024 };

/** The rows of README's "### Limits" table: name → value. */
function readmeLimits(): Record<string, number> {
  const readme = readFileSync(join(import.meta.dir, '../../README.md'), 'utf8');
  const section = readme.split('\n### Limits\n')[1]?.split('\n#')[0] ?? '';
  const rows: Record<string, number> = {};
  for (const [, name, amount, unit] of section.matchAll(/^\| `(\w+)` \| (\d+)(?: (KiB|MiB))? \|/gm)) {
    rows[name!] = Number(amount) * UNITS[unit ?? '']!;
  }
  return rows;
}

test("README's limits table states exactly the values of LIMITS", () => {
  expect(readmeLimits()).toEqual({ ...LIMITS });
});
