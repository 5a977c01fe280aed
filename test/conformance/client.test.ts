/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * pinned 0.1.16) in client mode, against `caplab probe --url` through the
 * committed wrapper (client.sh), run with the pinned Bun (Node 20 lacks the
 * `fs.globSync` it calls), its results written into the test's temp folder.
 * The committed expected-failures file names the scenarios probe fails on
 * purpose, with why; every other scenario run here must pass with that file.
 *
 * 0.1.16 judges a baseline by the scenario's checks alone, not by the
 * client's exit code: `initialize`'s checks (what the client sent) all
 * pass, so with the file the suite calls the entry stale (exit 1), although
 * the scenario fails by the suite's own verdict (the client exited 3). So
 * an expected failure is run without the file and must fail that way.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../scratch.ts';
import { serversLeft } from '../../src/cli/testing/configured-kit.ts';

const ROOT = join(import.meta.dir, '../..');
const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const CLIENT = join(import.meta.dir, 'client.sh');
const BASELINE = join(import.meta.dir, 'expected-failures.yml');

/** The `client:` scenarios of the expected-failures file (0.1.16 lists whole scenarios). */
function expectedFailures(): string[] {
  const text = readFileSync(BASELINE, 'utf8');
  const section = /^client:\n((?:[ \t]+.*\n|\n)*)/m.exec(text)?.[1] ?? '';
  return [...section.matchAll(/^[ \t]+- ([\w-]+)\s*$/gm)].map((match) => match[1]!);
}

async function conformance(scenario: string, out: string, baseline: boolean): Promise<{ code: number; output: string }> {
  const mark = `conformance-${crypto.randomUUID()}`;
  const proc = Bun.spawn([process.execPath, SUITE, 'client', '--command', CLIENT, '--scenario', scenario, '-o', out, ...(baseline ? ['--expected-failures', BASELINE] : [])], {
    cwd: out,
    // The mark is inherited by the client the suite starts: no process carrying it may outlive the suite.
    env: { PATH: '/usr/bin:/bin', NO_COLOR: '1', CAPLAB_TEST_SERVER_MARK: mark },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect(await serversLeft(mark)).toEqual([]);
  return { code, output: stdout + stderr };
}

/** The scenario's results folder under `out`: checks.json and the client's stdout. */
function results(out: string, scenario: string): { checks: { id: string; status: string }[]; stdout: string } {
  const folder = readdirSync(out).find((name) => name.startsWith(`${scenario}-`));
  if (!folder) throw new Error(`no results folder for ${scenario} in ${out}`);
  return { checks: JSON.parse(readFileSync(join(out, folder, 'checks.json'), 'utf8')), stdout: readFileSync(join(out, folder, 'stdout.txt'), 'utf8') };
}

describe('conformance 0.1.16 client scenarios against caplab probe --url', () => {
  test('the expected-failures file lists initialize, and only it', () => {
    expect(expectedFailures()).toEqual(['initialize']);
  });

  test('tools_call passes with the expected-failures file: exit 0, add_numbers called (tool-add-numbers SUCCESS), probe exit 0', async () => {
    expect(expectedFailures()).not.toContain('tools_call');
    const out = scratchDir('caplab-conformance-client-');
    const { code, output } = await conformance('tools_call', out, true);
    expect({ code, passed: output.includes('OVERALL: PASSED') }).toEqual({ code: 0, passed: true });
    const { checks, stdout } = results(out, 'tools_call');
    expect(checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')).toEqual([]);
    expect(checks.find((check) => check.id === 'tool-add-numbers')?.status).toBe('SUCCESS');
    expect(stdout).toContain('The sum of 2 and 3 is 5');
    expect(stdout).toContain('exit      0 (clean)');
  });

  test('initialize is an expected failure: the initialize probe sent is SUCCESS, then probe refuses the server (no tools capability, 200 for a notification) and exits 3', async () => {
    expect(expectedFailures()).toContain('initialize');
    const out = scratchDir('caplab-conformance-client-');
    const { code, output } = await conformance('initialize', out, false);
    expect({ code, exited: output.includes('CLIENT EXITED WITH ERROR (code 3)'), failed: output.includes('OVERALL: FAILED') }).toEqual({ code: 1, exited: true, failed: true });
    const { checks, stdout } = results(out, 'initialize');
    expect(checks.find((check) => check.id === 'mcp-client-initialization')?.status).toBe('SUCCESS');
    expect(stdout).toContain('finding   protocol/no_tools_capability [spec MUST]');
    expect(stdout).toContain('ENDED     protocol/not_accepted [spec MUST] notifications/initialized: HTTP 200, not 202 Accepted');
    expect(stdout).toContain('exit      3 (protocol or transport failure)');
    // What 0.1.16 does with the file for it: its checks pass, so the entry is "stale" (the client's exit is not read).
    const judged = await conformance('initialize', scratchDir('caplab-conformance-client-'), true);
    expect({ code: judged.code, stale: judged.output.includes('Stale baseline entries') }).toEqual({ code: 1, stale: true });
  });
});
