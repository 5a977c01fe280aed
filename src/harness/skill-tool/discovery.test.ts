/**
 * Dynamic discovery through a host run (the issue's acceptance): a local
 * `open_file {path}` tool, a `paths: docs/**\/*.md` package held out of the
 * catalog until a successful call touches a matching path, nested
 * `.claude/skills/` read only with trust, and none of it a grant. Every run
 * here is verified from its record.
 */
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../test/scratch.ts';
import { LIMITS } from '../../contract/index.ts';
import { open, project, put, run } from '../testing/discovery-project.ts';

test('a paths package is absent from request 1 and listed from the request after open_file of docs/a/b.md succeeded, and stays; its skill_visible names the call', async () => {
  const cwd = project();
  const r = await run(cwd, {}, [open('t1', 'docs/a/b.md')], [open('t2', 'docs/a/b.md')]);
  expect(r.catalogs).toEqual([['always'], ['always', 'doc-style'], ['always', 'doc-style']]);
  expect(r.outcomes).toEqual(['open_file ok', 'open_file ok']);
  const visible = r.events.filter((e) => e.type === 'skill_visible');
  expect(visible).toEqual([expect.objectContaining({ name: 'doc-style', action_id: 'act-01', path: 'docs/a/b.md', via: 'paths', glob: 'docs/**/*.md', origin: { kind: 'dir', path: join(cwd, 'skills/doc-style') } })]);
  // Recorded after the call, before the request it joins.
  const order = r.events.map((e) => e.type);
  expect(order.indexOf('skill_visible')).toBe(order.indexOf('call') + 1);
  const payload = readFileSync(join(cwd, 'run/requests/02-request.json'), 'utf8');
  expect(payload).toContain('- doc-style: How docs are written.');
  expect(readFileSync(join(cwd, 'run/requests/01-request.json'), 'utf8')).not.toContain('doc-style');
  expect(r.verified).toBe('verified');
});

test('a refused call (permission denied, invalid arguments) or a failed one touches nothing: the package stays absent', async () => {
  const denied = await run(project(), { denyTools: ['open_file'] }, [open('t1', 'docs/a/b.md')]);
  expect([denied.outcomes, denied.catalogs]).toEqual([['open_file permission_denied/flag'], [['always'], ['always']]]);
  const invalid = await run(project(), {}, [{ id: 't1', name: 'open_file', arguments: { path: 'docs/a/b.md', extra: 1 } }]);
  expect([invalid.outcomes, invalid.catalogs]).toEqual([['open_file invalid_arguments/extra_field'], [['always'], ['always']]]);
  const failed = await run(project(), {}, [open('t1', 'docs/a/none.md')]);
  expect([failed.outcomes, failed.catalogs]).toEqual([['open_file precondition/not_found'], [['always'], ['always']]]);
  for (const r of [denied, invalid, failed]) {
    expect(r.events.some((e) => e.type === 'skill_visible')).toBe(false);
    expect(r.verified).toBe('verified');
  }
});

test('a path outside cwd matches nothing, even one whose part under a parent matches the glob', async () => {
  const parent = scratchDir('caplab-discovery-parent-');
  const cwd = project(join(parent, 'proj'));
  put(join(parent, 'docs/a/b.md'), '# outside\n');
  const other = scratchDir('caplab-discovery-other-');
  put(join(other, 'docs/a/b.md'), '# other\n');
  const r = await run(cwd, {}, [open('t1', '../docs/a/b.md')], [open('t2', join(other, 'docs/a/b.md'))]);
  expect(r.outcomes).toEqual(['open_file ok', 'open_file ok']);
  expect(r.catalogs).toEqual([['always'], ['always'], ['always']]);
  expect(r.verified).toBe('verified');
});

test('nested .claude/skills/ is read on a touch only with trust: then nested-notes joins from the next request', async () => {
  const untrusted = await run(project(), {}, [open('t1', 'docs/a/b.md')]);
  expect(untrusted.catalogs).toEqual([['always'], ['always', 'doc-style']]);
  const cwd = project();
  const trusted = await run(cwd, { trustProject: true }, [open('t1', 'docs/a/b.md')], [{ id: 't2', name: 'Skill', arguments: { skill: 'nested-notes' } }]);
  expect(trusted.catalogs).toEqual([['always'], ['always', 'doc-style', 'nested-notes'], ['always', 'doc-style', 'nested-notes']]);
  const nested = trusted.events.find((e) => e.type === 'skill_visible' && e['via'] === 'nested');
  expect(nested).toEqual(expect.objectContaining({ name: 'nested-notes', folder: 'docs/a', path: 'docs/a/b.md', origin: { kind: 'project', path: join(cwd, 'docs/a/.claude/skills/nested-notes') } }));
  // The nested package is served by Skill like any other, its body verbatim.
  expect(trusted.outcomes).toEqual(['open_file ok', 'Skill ok']);
  expect(readFileSync(join(cwd, 'run/requests/03-request.json'), 'utf8')).toContain('Nested body.');
  expect(trusted.verified).toBe('verified');
});

test("a visible package grants nothing: write_note, which doc-style's allowed-tools names, stays permission_denied", async () => {
  const r = await run(project(), { denyTools: ['write_note'] }, [open('t1', 'docs/a/b.md')], [{ id: 't2', name: 'write_note', arguments: { path: 'docs/a/b.md' } }]);
  expect(r.catalogs[1]).toContain('doc-style');
  expect(r.outcomes).toEqual(['open_file ok', 'write_note permission_denied/flag']);
  expect(r.verified).toBe('verified');
});

test(`past LIMITS.skillPackages (${LIMITS.skillPackages}) in the run, the rest a nested folder holds is skipped and recorded (skill_found), not exit 2`, async () => {
  // The run starts with 2 packages (always, doc-style): room for skillPackages - 2 more.
  const room = LIMITS.skillPackages - 2;
  const names = Array.from({ length: room + 2 }, (_, i) => `n-${String(i).padStart(3, '0')}`);
  const crowded = (): string => {
    const cwd = project();
    for (const name of names) put(join(cwd, 'docs/b/.claude/skills', name, 'SKILL.md'), `---\ndescription: Package ${name}.\n---\nBody of ${name}.\n`);
    return cwd;
  };
  const r = await run(crowded(), { trustProject: true }, [open('t1', 'docs/b/x.md')]);
  expect(r.outcomes).toEqual(['open_file precondition/not_found']);
  // A failed call touches nothing: nothing is read.
  expect(r.events.some((e) => e.type === 'skill_found' || e.type === 'skill_visible')).toBe(false);
  const cwd = crowded();
  put(join(cwd, 'docs/b/x.md'), 'x\n');
  const again = await run(cwd, { trustProject: true }, [open('t1', 'docs/b/x.md')]);
  expect(again.outcomes).toEqual(['open_file ok']);
  // The nested ones, and doc-style (docs/b/x.md matches its paths).
  expect(again.events.filter((e) => e.type === 'skill_visible').length).toBe(room + 1);
  const found = again.events.filter((e) => e.type === 'skill_found');
  expect(found).toEqual([expect.objectContaining({ action_id: 'act-01', folder: 'docs/b', held: [], refused: [], skipped: names.slice(room).map((name) => ({ name, reason: 'over_limit', message: `past ${LIMITS.skillPackages} packages in the run (skillPackages): not parsed` })) })]);
  expect((again.catalogs[1] as string[]).length).toBe(LIMITS.skillPackages);
  expect(again.verified).toBe('verified');
});
