import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../harness/index.ts';
import { effectViolation, readRunEffects } from './check-effects.ts';
import { caseDir, caseFlags, checkCases, judge, type CheckCase } from './check.ts';
import { execute, scripted } from './run-command.ts';
import { testIo } from './test-io.ts';
import { excerptCli } from './testing/excerpt-cli.ts';
import { copyRun, demoRunDir, rechain, type Event } from './verify-test-kit.ts';

const excerpt = excerptCli();

const scratch = mkdtempSync(join(tmpdir(), 'caplab-check-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs one case as `caplab check` does (same flags), locally. */
async function runCase(item: CheckCase, root: string) {
  const flags = caseFlags(excerpt, item, root, `t-${item.id}`, 'local');
  return judge(excerpt, item, await execute(flags, scripted(item.scenario), testIo(root), excerpt));
}

const localCases = () => checkCases(excerpt).filter((c) => c.transport === 'local');
const caseNamed = (id: string) => localCases().find((c) => c.id === id)!;

test('at least 15 hostile scenarios are built in, each naming its exact refusals', () => {
  const hostile = localCases().filter((c) => c.scenario.name.startsWith('hostile-'));
  expect(hostile.length).toBeGreaterThanOrEqual(15);
  expect(hostile.filter((item) => (item.scenario.expect.failures?.length ?? 0) === 0).map((item) => item.id)).toEqual([]);
});

test('the hostile protocol-looking names also run over MCP, where the server-qualified name exists', () => {
  expect(checkCases(excerpt).map((c) => c.id)).toContain('hostile-protocol-names-mcp');
});

test('every built-in scenario ends as its file expects, with at most one card and no side effect started twice', async () => {
  const root = join(scratch, 'all');
  const results = [];
  for (const item of localCases()) results.push(await runCase(item, root));
  const unexpected = results.filter((r) => !r.passed).map((r) => `${r.id}: expected ${r.expected}; observed ${r.observed}`);
  expect(unexpected).toEqual([]);
  for (const r of results) {
    const effects = readRunEffects(r.runDir!, 'card');
    expect([r.id, effects.artifactFiles <= 1, (effects.effects['create_card'] ?? 0) <= 1]).toEqual([r.id, true, true]);
  }
});

test('a run whose refusals differ from the expected list does not pass, even with the right ending', async () => {
  const item = caseNamed('hostile-two-creates-one-batch-local');
  const expect_ = item.scenario.expect;
  const wrong: Scenario = { ...item.scenario, expect: { ...expect_, failures: [{ class: 'invalid_arguments', kind: 'duplicate_call_id' }] } };
  const result = await runCase({ ...item, scenario: wrong }, join(scratch, 'wrong'));
  expect(result.passed).toBe(false);
  expect(result.observed).toContain('refused: precondition/target_exists');
});

test('the card is counted from the run dir: a second file under card/ fails the case', async () => {
  const item = caseNamed('demo-local');
  const root = join(scratch, 'extra-card');
  const flags = caseFlags(excerpt, item, root, 't-extra', 'local');
  const executed = await execute(flags, scripted(item.scenario), testIo(root), excerpt);
  expect(judge(excerpt, item, executed).passed).toBe(true);
  writeFileSync(join(caseDir(root, item), 'card', 'second.md'), 'x');
  const after = judge(excerpt, item, executed);
  expect(after.passed).toBe(false);
  expect(after.observed).toContain('2 files under card/');
});

/** A copy of the demo's run dir with `edit`ed events (re-chained, re-sealed) and `cards` as the files under card/. */
function editedRunDir(demo: string, edit: (events: Event[]) => Event[], cards: readonly string[]): string {
  const dir = copyRun(demo, scratch);
  rmSync(join(dir, 'card'), { recursive: true });
  mkdirSync(join(dir, 'card'));
  for (const card of cards) writeFileSync(join(dir, 'card', card), 'x');
  rechain(dir, edit);
  return dir;
}

test('the run-dir reading counts card files and handler entries of writing tools only, from the parsed events', async () => {
  const demo = await demoRunDir(scratch);
  // The demo's calls: read_source twice, then create_card once; `withCreate` puts more calls after that one.
  const withCreate = (more: (create: Event) => Event[]) => (events: Event[]) => events.flatMap((e) => (e['name'] === 'create_card' ? [e, ...more(e)] : [e]));
  const once = readRunEffects(editedRunDir(demo, withCreate((c) => [{ ...c, handler_entered: false }, { ...c, binding_id: null }]), ['excerpt-card.md']), 'card');
  expect(once).toEqual({ artifactFiles: 1, effects: { create_card: 1 } });
  expect(effectViolation(once, 'card')).toBeUndefined();
  const twice = editedRunDir(demo, withCreate((c) => [c]), ['excerpt-card.md']);
  expect(effectViolation(readRunEffects(twice, 'card'), 'card')).toBe('create_card handler entered 2 times');
  expect(effectViolation(readRunEffects(editedRunDir(demo, (events) => events, ['a.md', 'b.md']), 'card'), 'card')).toBe('2 files under card/');
  const noCardDir = editedRunDir(demo, (events) => events.filter((e) => e['name'] !== 'create_card'), []);
  rmSync(join(noCardDir, 'card'), { recursive: true });
  expect(readRunEffects(noCardDir, 'card')).toEqual({ artifactFiles: 0, effects: {} });
  // A ledger whose events are not their schemas is an error here, not a count.
  const forged = editedRunDir(demo, (events) => events.map((e) => (e.type === 'call' ? { ...e, handler_entered: 'yes' } : e)), ['excerpt-card.md']);
  expect(() => readRunEffects(forged, 'card')).toThrow(/bad_event: line \d+ is not a well-formed call event: handler_entered: /);
});

test('the README names the number of cases `caplab check` runs', () => {
  const readme = readFileSync(join(import.meta.dir, '../../README.md'), 'utf8');
  expect(readme).toContain(`scenario, ${checkCases(excerpt).length} cases;`);
});
