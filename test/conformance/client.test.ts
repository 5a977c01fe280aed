/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * pinned 0.1.16) in client mode, against `caplab probe --url` through the
 * committed wrapper (client.sh), run with the pinned Bun (Node 20 lacks the
 * `fs.globSync` it calls), its results written into the test's temp folder.
 * Every scenario run here must pass the suite with the committed
 * expected-failures file.
 *
 * 0.1.16 judges a baseline by the scenario's checks alone, not by the
 * client's exit code, and calls a listed scenario whose checks pass stale
 * (exit 1). `initialize`'s checks (what probe sent) all pass while probe
 * refuses the scenario's server on purpose (exit 3), so the file cannot
 * list it: the refusal is pinned here from probe's output, and without the
 * file the suite fails the scenario by the client's exit.
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

/** The `client:` scenarios of the expected-failures file (0.1.16 lists whole scenarios): a flow list or a block list. */
function expectedFailures(): string[] {
  const text = readFileSync(BASELINE, 'utf8').replace(/^\s*#.*$/gm, '');
  const flow = /^client:[ \t]*\[(.*)\][ \t]*$/m.exec(text);
  if (flow) return flow[1]!.split(',').map((name) => name.trim()).filter(Boolean);
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
  test('the expected-failures file lists no scenario (0.1.16 would call initialize stale)', () => {
    expect(readFileSync(BASELINE, 'utf8')).toMatch(/^client: \[\]$/m);
    expect(expectedFailures()).toEqual([]);
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

  test('initialize passes the suite with the expected-failures file (its checks: mcp-client-initialization SUCCESS) while probe refuses the server and exits 3; without the file the suite fails it', async () => {
    expect(expectedFailures()).not.toContain('initialize');
    const out = scratchDir('caplab-conformance-client-');
    const judged = await conformance('initialize', out, true);
    expect({ code: judged.code, passed: judged.output.includes('Baseline check passed') }).toEqual({ code: 0, passed: true });
    const { checks, stdout } = results(out, 'initialize');
    expect(checks.find((check) => check.id === 'mcp-client-initialization')?.status).toBe('SUCCESS');
    expect(checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')).toEqual([]);
    expect(stdout).toContain('finding   error protocol/no_tools_capability [spec MUST]');
    expect(stdout).toContain('ENDED     protocol/not_accepted [spec MUST] notifications/initialized: HTTP 200, not 202 Accepted');
    expect(stdout).toContain('exit      3 (protocol or transport failure)');
    const bare = await conformance('initialize', scratchDir('caplab-conformance-client-'), false);
    expect({ code: bare.code, exited: bare.output.includes('CLIENT EXITED WITH ERROR (code 3)'), failed: bare.output.includes('OVERALL: FAILED') }).toEqual({ code: 1, exited: true, failed: true });
  });
});
