import { renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ToolProvider } from '../harness/index.ts';
import { caseDir, checkCases, judge, type CheckResult } from './check.ts';
import { HELP } from './help.ts';
import { EXIT, paint, type Io } from './io.ts';
import { junitXml } from './junit.ts';
import { execute, newRunId } from './run-command.ts';
import type { RunFlags } from './setup.ts';

/** `caplab check [--json] [--junit FILE] [--out DIR]`: the CI smoke test. */
export async function checkCommand(args: readonly string[], io: Io, mcpTools: ToolProvider): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { json: { type: 'boolean' }, junit: { type: 'string' }, out: { type: 'string' }, 'run-id': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    io.stderr(`caplab check: ${(error as Error).message}\nSee \`caplab check --help\`.\n`);
    return EXIT.usage;
  }
  const v = parsed.values;
  if (v.help) return io.stdout(`${HELP['check']}\n`), EXIT.ok;
  const checkId = v['run-id'] ?? newRunId().replace(/^run-/, 'check-');
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(checkId)) {
    io.stderr('caplab check: --run-id must match [A-Za-z0-9._-]{1,64}\n');
    return EXIT.usage;
  }
  const root = resolve(io.cwd, v.out ?? join('caplab-runs', checkId));
  const colours = paint(io);
  const results: CheckResult[] = [];
  const cases = checkCases();
  if (!v.json) io.stdout(`caplab check — ${cases.length} scenarios, run dirs under ${root}\n\n`);
  const width = Math.max(...cases.map((c) => c.id.length));
  for (const item of cases) {
    const flags: RunFlags = {
      transport: item.transport,
      scenario: item.scenario.name,
      json: true,
      yes: false,
      trustProject: false,
      allowTools: [],
      denyTools: [],
      skillDirs: [],
      noSkill: false,
      defaultSkill: 'excerpt-card',
      out: caseDir(root, item),
      runId: `${checkId}-${item.id}`,
    };
    const result = judge(item, await execute(flags, item.scenario, io, mcpTools));
    results.push(result);
    if (!v.json) {
      const mark = result.passed ? colours.ok('✓') : colours.bad('✗');
      io.stdout(`${mark} ${item.id.padEnd(width)}  expected: ${result.expected}\n  ${' '.repeat(width)}  observed: ${result.observed}\n`);
    }
  }
  const passed = results.filter((r) => r.passed).length;
  if (v.junit) {
    const target = resolve(io.cwd, v.junit);
    const temp = `${target}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, junitXml(results), { flag: 'wx' });
      renameSync(temp, target);
    } catch (error) {
      io.stderr(`caplab check: could not write ${target}: ${String(error)}\n`);
      return EXIT.usage;
    }
  }
  const allPassed = passed === results.length;
  if (v.json) io.stdout(`${JSON.stringify({ passed: allPassed, scenarios: results.length, expected: passed, unexpected: results.length - passed, results, scripted: true }, null, 2)}\n`);
  else io.stdout(`\n${allPassed ? colours.ok('all scenarios ended as expected') : colours.bad(`${results.length - passed} scenario(s) did not end as expected`)} (${passed}/${results.length})\n`);
  return allPassed ? EXIT.ok : EXIT.failed;
}
