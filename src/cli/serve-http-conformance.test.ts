/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * pinned 0.1.16, from the lockfile) against `caplab serve --http`, run with
 * the pinned Bun (Node 20 lacks the `fs.globSync` it calls), its results
 * written into the test's temp folder. Its server scenarios expect the
 * everything-server's tools, so only those that apply to a tools-only
 * server run, by name.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { ROOT, startServe } from './testing/serve-http.ts';

const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

async function conformance(url: string, scenario: string, out: string): Promise<{ code: number; stdout: string }> {
  const proc = Bun.spawn([process.execPath, SUITE, 'server', '--url', url, '--scenario', scenario, '-o', out], {
    cwd: out,
    env: { PATH: '/usr/bin:/bin', NO_COLOR: '1' },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout: stdout + stderr };
}

/** Every check the scenario wrote (`checks.json` in its own folder under `out`). */
function checks(out: string, scenario: string): { id: string; status: string }[] {
  const folder = readdirSync(out).find((name) => name.startsWith(`server-${scenario}-`));
  if (!folder) throw new Error(`no results folder for ${scenario} in ${out}`);
  return JSON.parse(readFileSync(join(out, folder, 'checks.json'), 'utf8')) as { id: string; status: string }[];
}

describe('conformance 0.1.16 server scenarios against caplab serve --http', () => {
  test.each(SCENARIOS)('%s passes: exit 0, every check SUCCESS', async (scenario) => {
    const served = await startServe();
    const out = scratchDir('caplab-conformance-');
    const { code, stdout } = await conformance(served.url, scenario, out);
    expect({ scenario, code, failed: /(\d+) failed/.exec(stdout)?.[1] }).toEqual({ scenario, code: 0, failed: '0' });
    const written = checks(out, scenario);
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((check) => check.status !== 'SUCCESS')).toEqual([]);
  });

  test('server-session-lifecycle is not a scenario of 0.1.16: the suite refuses the name (its own limit, not this server\'s)', async () => {
    const served = await startServe();
    const out = scratchDir('caplab-conformance-');
    const { code, stdout } = await conformance(served.url, 'server-session-lifecycle', out);
    expect(code).toBe(1);
    expect(stdout).toContain("Unknown scenario 'server-session-lifecycle'");
    // What the suite does list: the four run above are among them.
    for (const scenario of SCENARIOS) expect(stdout).toContain(`  - ${scenario}\n`);
  });
});
