/**
 * verify re-derives each tool-mode request's catalog (format 10): forgeries
 * of discovery runs, re-chained (seq, prev, file hashes and seal recomputed,
 * the payload's <skills> block edited to agree), each refused naming the
 * event; and a Skill result's text against the recorded package identity.
 */
import { expect, test } from 'bun:test';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../test/scratch.ts';
import * as v from 'valibot';
import { EVENT_SCHEMAS, eventTypesOf, KNOWN_FORMATS, verify } from '../../ledger/index.ts';
import { rechain, type EditableEvent } from '../../ledger/test-kit.ts';
import { discoverPackages, load, methodText, type StagedPackage } from '../../skill/index.ts';
import { recheckAcceptance } from '../recheck.ts';
import { open, project, projectTask, run } from '../testing/discovery-project.ts';
import { packageRecord } from './package-record.ts';
import { hostNote } from './skill-tool.ts';
import { skillTextProblem } from './skill-text-checks.ts';

/** A copy of a project's run dir, its ledger edited and re-chained, and (optionally) a request payload's <skills> block given `names`' lines. */
function forged(cwd: string, edit: (events: EditableEvent[]) => EditableEvent[], listed?: { request: number; add: string }): string {
  const copy = join(scratchDir('caplab-discovery-forged-'), 'run');
  cpSync(join(cwd, 'run'), copy, { recursive: true });
  if (listed) {
    const file = join(copy, 'requests', `${String(listed.request).padStart(2, '0')}-request.json`);
    const payload = JSON.parse(readFileSync(file, 'utf8')) as { system: { text: string }[] };
    payload.system = payload.system.map((b) => (b.text.startsWith('<skills>') ? { ...b, text: b.text.replace('\n</skills>', `\n- ${listed.add}: Forged.\n</skills>`) } : b));
    writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
  }
  const seal = join(copy, 'ledger.head');
  const format = JSON.parse(readFileSync(seal, 'utf8')).format as string;
  rechain(copy, edit);
  // The kit seals with the base format; the run's is kept.
  writeFileSync(seal, readFileSync(seal, 'utf8').replace(/"format":"[^"]*"/, `"format":${JSON.stringify(format)}`));
  return copy;
}

const refusal = (cwd: string, dir: string): string => {
  const verified = verify(dir, { recheck: recheckAcceptance(projectTask(cwd)) });
  return verified.ok ? 'verified' : `${verified.kind}: ${verified.message}`;
};
const addToCatalog = (id: string, name: string) => (events: EditableEvent[]) =>
  events.map((e) => (e['type'] === 'request' && e['request_id'] === id ? { ...e, skill_catalog: [...(e['skill_catalog'] as string[]), name].sort() } : e));

test('a paths package listed before its touch (request and payload agreeing) is refused, naming the request', async () => {
  const cwd = project();
  await run(cwd, {}, [open('t1', 'docs/a/b.md')]);
  const copy = forged(cwd, addToCatalog('req-01', 'doc-style'), { request: 1, add: 'doc-style' });
  expect(refusal(cwd, copy)).toMatch(/^catalog_mismatch: request req-01: skill_catalog \["always","doc-style"\], but the catalog re-derived .* is \["always"\]$/);
});

test('a skill_visible whose triggering call was refused is refused, naming it; so is one with no call, a path it did not touch, a glob not its', async () => {
  const good = project();
  const ran = await run(good, {}, [open('t1', 'docs/a/b.md')]);
  const visible = ran.events.find((e) => e.type === 'skill_visible')!;
  const cwd = project();
  await run(cwd, { denyTools: ['open_file'] }, [open('t1', 'docs/a/b.md')]);
  const insert = (fields: EditableEvent) => (events: EditableEvent[]) => {
    const at = events.findIndex((e) => e['type'] === 'call') + 1;
    return addToCatalog('req-02', 'doc-style')([...events.slice(0, at), { ...visible, origin: { kind: 'dir', path: join(cwd, 'skills/doc-style') }, ...fields }, ...events.slice(at)]);
  };
  const listed = { request: 2, add: 'doc-style' };
  expect(refusal(cwd, forged(cwd, insert({}), listed))).toMatch(/^catalog_mismatch: line 5 \(skill_visible\): names action act-01, a call that did not succeed \(permission_denied\/flag\)/);
  expect(refusal(cwd, forged(cwd, insert({ action_id: 'act-09' }), listed))).toContain('names action act-09, which no earlier call event is');
  const okCwd = project();
  await run(okCwd, {}, [open('t1', 'docs/a/b.md')]);
  const edited = (fields: EditableEvent) => (events: EditableEvent[]) => events.map((e) => (e['type'] === 'skill_visible' ? { ...e, ...fields } : e));
  expect(refusal(okCwd, forged(okCwd, edited({ path: 'docs/other.md' })))).toContain('names path "docs/other.md", which action act-01 did not touch');
  expect(refusal(okCwd, forged(okCwd, edited({ glob: 'docs/*.md' })))).toContain('names glob "docs/*.md", which is not one of doc-style\'s paths');
});

test('a package a successful call touched that no skill_visible made visible (the event removed, the catalog kept) is refused at the next request', async () => {
  const cwd = project();
  await run(cwd, {}, [open('t1', 'docs/a/b.md')]);
  const copy = forged(cwd, (events) => events.filter((e) => e['type'] !== 'skill_visible'));
  expect(refusal(cwd, copy)).toBe('catalog_mismatch: request req-02: doc-style is held by paths ["docs/**/*.md"], which action act-01\'s touch of "docs/a/b.md" matched, but no skill_visible made it visible before this request');
});

test('a nested find in a run whose run_start says nested discovery was off is refused', async () => {
  const cwd = project();
  await run(cwd, { trustProject: true }, [open('t1', 'docs/a/b.md')]);
  const copy = forged(cwd, (events) => events.map((e) => (e['type'] === 'run_start' ? { ...e, skill_nested: false } : e)));
  expect(refusal(cwd, copy)).toContain('is a nested find, but run_start says skill_nested is not true');
});

test('a Skill result\'s text against the recorded identity: a plain body by sha256, a staged header, its host block, and an embedded stage recomputed whole', () => {
  const cwd = project();
  const plain = discoverPackages({ dirs: [join(cwd, 'skills')], embedded: false, stages: [] });
  if (!plain.ok) throw new Error(plain.message);
  const always = plain.value.find((p) => p.name === 'always')!;
  const record = packageRecord(always as typeof always & { catalog: 'listed' });
  const note = hostNote({ skill: 'always', later_stages: [] });
  const none = () => undefined;
  expect(skillTextProblem(record, ['Always body.\n', note], undefined, none)).toBeUndefined();
  expect(skillTextProblem(record, ['Another body.\n', note], undefined, none)).toContain("is not always's SKILL.md body");
  expect(skillTextProblem(record, ['Always body.\n', note], 'x', none)).toContain('host block');

  const stages = ['read', 'create', 'finish'];
  const embedded = discoverPackages({ embedded: true, stages });
  if (!embedded.ok) throw new Error(embedded.message);
  const card = embedded.value.find((p) => p.name === 'excerpt-card') as StagedPackage;
  const staged = packageRecord(card as StagedPackage & { catalog: 'listed' });
  const text = methodText(load({ package: card, tools: [] }, 'create'));
  const createNote = hostNote({ skill: 'excerpt-card', stage: 'create', later_stages: ['finish'] });
  const has = () => card;
  expect(skillTextProblem(staged, [text, createNote], undefined, has)).toBeUndefined();
  expect(skillTextProblem(staged, [methodText(load({ package: card, tools: [] }, 'read')), createNote], undefined, has)).toContain('host block is not the one for stage read');
  expect(skillTextProblem(staged, [text.replace('</method>', 'more\n</method>'), createNote], undefined, has)).toContain('is not stage create of the embedded excerpt-card');
  // A folder's staged package: its text is not recomputable here, only its header and host block.
  expect(skillTextProblem(staged, [text.replace('</method>', 'more\n</method>'), createNote], undefined, none)).toBeUndefined();
  expect(skillTextProblem({ ...staged, hash: 'f'.repeat(64) }, [text, createNote], undefined, none)).toContain("does not open as excerpt-card 1.0.0 with hash ffff");
});

test("a Skill result whose text is not the body run_start records for the package (its identity forged) is refused, naming the request", async () => {
  const cwd = project();
  await run(cwd, {}, [{ id: 't1', name: 'Skill', arguments: { skill: 'always' } }]);
  const copy = forged(cwd, (events) => events.map((e) => (e['type'] === 'run_start' ? { ...e, skill_packages: (e['skill_packages'] as EditableEvent[]).map((p) => (p['name'] === 'always' ? { ...p, body_sha256: 'a'.repeat(64) } : p)) } : e)));
  expect(refusal(cwd, copy)).toBe(`result_mismatch: request req-02: the Skill result answering t1 (always) its text is not always's SKILL.md body (run_start records its sha256 ${'a'.repeat(64)})`);
});

test('a skill_visible or skill_found line is an event of format 10 and later (11 has 10\'s shapes): no earlier format has one', async () => {
  const cwd = project();
  const ran = await run(cwd, { trustProject: true }, [open('t1', 'docs/a/b.md')]);
  for (const type of ['skill_visible', 'skill_found'] as const) {
    const line = ran.events.find((e) => e.type === type) ?? { type, seq: 1, at: 'x', prev: '0'.repeat(64), action_id: 'act-01', path: 'docs/a/b.md', folder: 'docs/a', held: [], refused: [], skipped: [] };
    const from = KNOWN_FORMATS.indexOf('caplab.ledger/10');
    for (const format of KNOWN_FORMATS.slice(from)) expect([format, v.is(EVENT_SCHEMAS[format][type].line, line)]).toEqual([format, true]);
    for (const format of KNOWN_FORMATS.slice(0, from)) expect([format, v.is(EVENT_SCHEMAS[format][type].line, line)]).toEqual([format, false]);
    expect(eventTypesOf('caplab.ledger/9')).not.toContain(type);
  }
});
