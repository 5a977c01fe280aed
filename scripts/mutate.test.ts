/**
 * The mutation list stays applicable (cheap, static): every README claim has
 * an entry, every entry's exact text occurs once in its file, every named test
 * file exists. Running the mutants is `npm run mutate`, not part of this suite.
 */
import { expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstFailingTest, listProblems, occurrences } from './mutate.ts';
import { MUTATIONS } from './mutations.ts';

const root = join(import.meta.dir, '..');

test('every README claim has an entry and README still makes it', () => {
  expect(listProblems(MUTATIONS, readFileSync(join(root, 'README.md'), 'utf8'))).toEqual([]);
  expect(listProblems(MUTATIONS.filter((m) => m.claim !== 'skills'), 'no claims here')).toContain('claim skills has no entry');
});

test('every entry applies to exactly one site and names test files that exist', () => {
  const problems = MUTATIONS.flatMap((m) => {
    const path = join(root, m.file);
    if (!existsSync(path)) return [`${m.id}: ${m.file} does not exist`];
    const count = occurrences(readFileSync(path, 'utf8'), m.find);
    const missing = (m.tests ?? []).filter((t) => !existsSync(join(root, t)));
    return [...(count === 1 ? [] : [`${m.id}: text occurs ${count} times in ${m.file}`]), ...missing.map((t) => `${m.id}: no test file ${t}`), ...(m.find === m.replace ? [`${m.id}: replacement changes nothing`] : [])];
  });
  expect(problems).toEqual([]);
});

test('occurrences counts exact, non-overlapping matches; the first failing test is read from bun output', () => {
  expect([occurrences('a.b a.b', 'a.b'), occurrences('aaa', 'aa'), occurrences('x', ''), occurrences('x', 'y')]).toEqual([2, 1, 0, 0]);
  const output = '(pass) ok [1.00ms]\n(fail) suite > first [2.50ms]\n(fail) second [10ms]\n 1 pass\n(fail) suite > first [2.50ms]\n';
  expect(firstFailingTest(output)).toBe('suite > first (+1 more)');
  expect(firstFailingTest('(fail) only [3.00ms]\n')).toBe('only');
  expect(firstFailingTest(' 3 pass\n 0 fail\n')).toBeUndefined();
});
