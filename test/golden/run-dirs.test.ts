import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { scratchDir } from '../scratch.ts';
import { EXPECTED_PATH, goldenRuns } from './run-dirs.ts';

test('demo (local, mcp) and every check scenario write run dirs byte-identical to the committed hashes', async () => {
  const expected = JSON.parse(readFileSync(EXPECTED_PATH, 'utf8'));
  const actual = await goldenRuns(scratchDir('caplab-golden-'));
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  expect(Object.values(actual).map((run) => run.exit)).toEqual([0, 0, 0]);
  // One comparison per run, so a failure names the run and the files that differ.
  for (const name of Object.keys(expected)) expect({ [name]: actual[name] }).toEqual({ [name]: expected[name] });
  expect(Object.keys(expected['check'].files).length).toBeGreaterThan(100);
}, 60_000);
