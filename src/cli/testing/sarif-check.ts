/**
 * Test code only: a SARIF file checked as probe's tests check it — by
 * sarif-multitool's `validate` (no error in its own log) and by the SARIF
 * 2.1.0 JSON Schema it ships (its validate passes some logs the schema refuses).
 */
import type { ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '../../..');
const PATH = process.env['PATH'] ?? '/usr/bin:/bin';

/** The SARIF 2.1.0 JSON Schema sarif-multitool ships, compiled (2020-12). */
export function sarifSchema(): ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(join(ROOT, 'node_modules/@microsoft/sarif-multitool-linux/sarif-2.1.0.json'), 'utf8')));
}

/** `sarif-multitool validate FILE`: the results of its own log (SARIF too), by level. */
export async function validateSarif(file: string, dir: string): Promise<{ code: number; errors: string[]; results: number }> {
  const log = join(dir, 'validation.sarif');
  const run = Bun.spawn([join(ROOT, 'node_modules/.bin/sarif-multitool'), 'validate', file, '--output', log, '--log', 'ForceOverwrite'], { cwd: dir, stdout: 'pipe', stderr: 'pipe', env: { PATH, HOME: dir, DOTNET_CLI_TELEMETRY_OPTOUT: '1' } });
  const [out, code] = await Promise.all([new Response(run.stdout).text(), run.exited]);
  const results = JSON.parse(readFileSync(log, 'utf8')).runs[0].results ?? [];
  const errors = results.filter((r: any) => (r.level ?? 'warning') === 'error').map((r: any) => `${r.ruleId}: ${JSON.stringify(r.message)}`);
  if (code !== 0) errors.push(`exit ${code}: ${out}`);
  return { code, errors, results: results.length };
}

