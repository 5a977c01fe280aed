import { expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { createCardContract, readSourceContract } from '../excerpt/contracts.ts';
import { STAGES } from '../excerpt/stages.ts';
import { excerptTask } from '../excerpt/index.ts';
import { LIMITS } from '../contract/index.ts';
import { createHost } from '../harness/index.ts';
import { bindPackage, discoverPackages, load, methodText } from '../skill/index.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

/** `--skill-mode direct|tool` through the CLI: its refusals (exit 2), the catalog, and what a Skill call returns. */

const CC = join(import.meta.dir, '../../fixtures/skills-cc');
const usage = { input_tokens: 10, output_tokens: 5 };

/** Runs a scenario file written from `scenario` in a fresh folder; returns the exit code, stderr and the run dir. */
async function runScenario(scenario: Record<string, unknown>, ...flags: string[]): Promise<{ code: number; err: string; dir: string; cwd: string }> {
  const cwd = scratchDir('caplab-skill-mode-');
  writeFileSync(join(cwd, 's.json'), JSON.stringify({ name: 'sm', description: 'skill mode', expect: { accepted: false }, ...scenario }));
  const io = testIo(cwd);
  const code = await cli(['run', '--scenario', 's.json', '--transport', 'local', '--out', 'run', ...flags], io);
  return { code, err: io.err(), dir: join(cwd, 'run'), cwd };
}

const skillCall = (id: string, input: unknown) => ({ tool_calls: [{ id, name: 'Skill', arguments: input }], usage });
const done = { text: 'done', usage };
const payload = (dir: string, n: number) => JSON.parse(readFileSync(join(dir, 'requests', `${String(n).padStart(2, '0')}-request.json`), 'utf8'));
/** The content blocks of the tool_result answering `id`, in a payload. */
function resultOf(p: { messages: { content: unknown }[] }, id: string): { is_error: boolean; content: { type: string; text: string }[] } {
  const blocks = p.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])) as { type: string; tool_use_id?: string; is_error: boolean; content: { type: string; text: string }[] }[];
  const found = blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === id);
  if (!found) throw new Error(`no result for ${id}`);
  return found;
}

test('exit 2: --no-skill with --skill-mode tool, an unknown mode, a scenario with skill and skill_mode tool, the flag against the scenario', async () => {
  const cwd = scratchDir('caplab-skill-mode-flags-');
  for (const args of [['demo', '--skill-mode', 'tool', '--no-skill'], ['demo', '--skill-mode', 'both']]) {
    const io = testIo(cwd);
    expect(await cli(args, io)).toBe(2);
    expect(io.err()).toContain('--skill-mode');
  }
  const both = await runScenario({ skill: 'excerpt-card', skill_mode: 'tool', responses: [done] });
  expect(both.code).toBe(2);
  expect(both.err).toContain('skill_mode');
  const against = await runScenario({ skill_mode: 'tool', responses: [done] }, '--skill-mode', 'direct');
  expect(against.code).toBe(2);
  expect(against.err).toContain('skill_mode "tool"');
  const noSkill = await runScenario({ skill_mode: 'tool', responses: [done] }, '--no-skill');
  expect(noSkill.code).toBe(2);
});

test('the host: tool mode with an empty catalog is empty_catalog, and with a package named to adopt bad_option, before anything runs', async () => {
  const empty = await createHost({ cwd: scratchDir('caplab-skill-mode-host-') }).prepare(excerptTask, { skillMode: 'tool' });
  expect(empty.ok ? 'ok' : `${empty.class}/${empty.kind}`).toBe('invalid_arguments/empty_catalog');
  const named = await createHost({ embeddedSkills: true }).prepare(excerptTask, { skillMode: 'tool', skill: 'excerpt-card' });
  expect(named.ok ? 'ok' : `${named.class}/${named.kind}`).toBe('invalid_arguments/bad_option');
  const direct = await createHost({ embeddedSkills: true }).prepare(excerptTask, { skill: 'excerpt-card' });
  expect(direct.ok && direct.value.options.builtins).toBeUndefined();
});

test('tool mode catalogues a Claude Code and a plain package with the embedded one, in name order; Skill on the plain one returns its body byte-exact, args echoed', async () => {
  const run = await runScenario({ skill_mode: 'tool', responses: [skillCall('toolu_01', { skill: 'plain-notes', args: 'alpha first' }), done] }, '--skills', CC);
  expect(run.code).toBe(1); // not accepted: no card; the run itself completed
  const first = payload(run.dir, 1);
  expect(first.system).toHaveLength(2);
  expect(first.system[1].text.startsWith('<skills>\n')).toBe(true);
  expect([...first.system[1].text.matchAll(/^- ([a-z0-9-]+): /gm)].map((m) => m[1])).toEqual(['cc-review', 'excerpt-card', 'plain-notes']);
  expect(first.system[1].text).not.toContain('# Quoting notes');
  expect(first.tools.map((t: { name: string }) => t.name)).toContain('Skill');
  const body = readFileSync(join(CC, 'plain-notes/SKILL.md'), 'utf8').split('---\n').slice(2).join('---\n');
  const answer = resultOf(payload(run.dir, 2), 'toolu_01');
  expect(answer.is_error).toBe(false);
  expect(answer.content[0]!.text).toBe(body);
  expect(answer.content[1]!.text).toContain('"alpha first"');
  const ledger = readFileSync(join(run.dir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const requests = ledger.filter((e) => e.type === 'request');
  expect(requests.map((e) => e.skill_catalog)).toEqual([['cc-review', 'excerpt-card', 'plain-notes'], ['cc-review', 'excerpt-card', 'plain-notes']]);
  expect(requests[1].method).toMatchObject({ name: 'plain-notes', plain: true, body_present: true, via: 'skill_tool', tool_use_id: 'toolu_01' });
  expect(ledger[0].skill_mode).toBe('tool');
});

test("Skill on a staged package returns exactly methodText(load(bound, stage)) for the host's stage, then the host block naming the later stages", async () => {
  const run = await runScenario({ skill_mode: 'tool', responses: [skillCall('toolu_01', { skill: 'excerpt-card', args: 'create stage please' }), done] });
  const found = discoverPackages({ embedded: true, stages: STAGES });
  if (!found.ok) throw new Error(found.message);
  const pkg = found.value.find((p) => p.name === 'excerpt-card');
  if (pkg?.kind !== 'staged') throw new Error('staged');
  const bound = bindPackage(pkg, [readSourceContract, createCardContract]);
  if (!bound.ok) throw new Error(bound.message);
  const answer = resultOf(payload(run.dir, 2), 'toolu_01');
  // The args ask for the create stage; the host gives the read stage, the request's.
  expect(answer.content[0]!.text).toBe(methodText(load(bound.value, 'read')));
  expect(answer.content[1]!.text).toContain('stage read delivered');
  expect(answer.content[1]!.text).toContain('Later stages: create, finish');
  expect(answer.content[1]!.text).toContain('"create stage please"');
});

test('Skill refusals before anything loads: unknown_skill names the catalog and hints a leading /; skill_not_in_catalog for a known package the catalog holds out', async () => {
  const dir = scratchDir('caplab-skill-mode-pkgs-');
  mkdirSync(join(dir, 'hidden-notes'));
  writeFileSync(join(dir, 'hidden-notes/SKILL.md'), '---\nname: hidden-notes\ndescription: Notes only a user invokes.\ndisable-model-invocation: true\n---\n# Hidden\n\nHIDDEN BODY\n');
  const run = await runScenario({ skill_mode: 'tool', responses: [{ tool_calls: [{ id: 'toolu_01', name: 'Skill', arguments: { skill: '/excerpt-card' } }, { id: 'toolu_02', name: 'Skill', arguments: { skill: 'nowhere' } }, { id: 'toolu_03', name: 'Skill', arguments: { skill: 'hidden-notes' } }], usage }, done] }, '--skills', dir);
  const second = payload(run.dir, 2);
  const slash = resultOf(second, 'toolu_01');
  expect(slash.is_error).toBe(true);
  expect(slash.content[0]!.text).toContain('unknown_skill');
  expect(slash.content[0]!.text).toContain('without the leading');
  const nowhere = resultOf(second, 'toolu_02');
  expect(nowhere.content[0]!.text).toContain('unknown_skill');
  expect(nowhere.content[0]!.text).toContain('catalog lists: excerpt-card');
  const hidden = resultOf(second, 'toolu_03');
  expect(hidden.is_error).toBe(true);
  expect(hidden.content[0]!.text).toContain('skill_not_in_catalog');
  expect(JSON.stringify(second)).not.toContain('HIDDEN BODY');
  const calls = readFileSync(join(run.dir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.type === 'call');
  expect(calls.map((c) => [c.outcome.kind, c.handler_entered])).toEqual([['unknown_skill', false], ['unknown_skill', false], ['skill_not_in_catalog', false]]);
});

test('Skill args past skillArgsChars code points: an error result, nothing loaded; at the limit it loads', async () => {
  const run = await runScenario({ skill_mode: 'tool', responses: [{ tool_calls: [{ id: 'toolu_01', name: 'Skill', arguments: { skill: 'excerpt-card', args: '😀'.repeat(LIMITS.skillArgsChars + 1) } }, { id: 'toolu_02', name: 'Skill', arguments: { skill: 'excerpt-card', args: '😀'.repeat(LIMITS.skillArgsChars) } }], usage }, done] });
  const second = payload(run.dir, 2);
  const over = resultOf(second, 'toolu_01');
  expect(over.is_error).toBe(true);
  expect(over.content[0]!.text).toContain('invalid_arguments');
  expect(JSON.stringify(over)).not.toContain('<method package');
  expect(resultOf(second, 'toolu_02').is_error).toBe(false);
});
