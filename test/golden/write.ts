/** Rewrites test/golden/expected.json from a fresh set of runs (see run-dirs.ts). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPECTED_PATH, goldenRuns } from './run-dirs.ts';

const cwd = mkdtempSync(join(tmpdir(), 'caplab-golden-'));
try {
  const runs = await goldenRuns(cwd);
  writeFileSync(EXPECTED_PATH, `${JSON.stringify(runs, null, 2)}\n`);
  for (const [name, run] of Object.entries(runs)) console.log(`${name}: exit ${run.exit}, ${Object.keys(run.files).length} files`);
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
