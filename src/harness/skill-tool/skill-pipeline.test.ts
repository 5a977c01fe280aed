/**
 * Skill takes the same pipeline as every tool: a deny rule (`--deny-tool=Skill`:
 * a notice before the run, each call `permission_denied`, the run goes on)
 * and a PreToolUse hook (it sees the Skill call and may block it).
 */
import { expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedClock, verify } from '../../ledger/index.ts';
import { createHost, type HostOptions } from '../host.ts';
import { recheckAcceptance } from '../recheck.ts';
import { project, projectTask, script, type Call } from '../testing/discovery-project.ts';

const skill = (id: string, name: string): Call => ({ id, name: 'Skill', arguments: { skill: name } });

async function hosted(cwd: string, options: HostOptions, ...turns: Call[][]) {
  const task = projectTask(cwd);
  const prepared = await createHost({ cwd, skillDirs: ['skills'], ...options }).prepare(task, { skillMode: 'tool' });
  if (!prepared.ok) throw new Error(prepared.message);
  const ran = await prepared.value.run(script(...turns), { runId: 'r', runDir: 'run', clock: fixedClock(0) });
  if (!ran.ok) throw new Error(ran.message);
  const verified = verify(join(cwd, 'run'), { recheck: recheckAcceptance(task) });
  return {
    notices: prepared.value.notices,
    outcomes: ran.value.loop.calls.map((c) => (c.outcome.ok ? `${c.name} ok` : `${c.name} ${c.outcome.class}/${c.outcome.kind}`)),
    stop: ran.value.loop.stop,
    verified: verified.ok,
  };
}

test('--deny-tool=Skill: a notice says no skill can be loaded; each Skill call is permission_denied and the run goes on to its end', async () => {
  const r = await hosted(project(), { denyTools: ['Skill'] }, [skill('t1', 'always')], [{ id: 't2', name: 'open_file', arguments: { path: 'docs/a/b.md' } }]);
  expect(r.notices).toContainEqual(expect.stringMatching(/^Skill is denied \(.*\): the <skills> catalog is still listed, but every Skill call will be refused/));
  expect([r.outcomes, r.stop, r.verified]).toEqual([['Skill permission_denied/flag', 'open_file ok'], 'final_answer', true]);
  // Without the deny there is no such notice.
  expect((await hosted(project(), {}, [skill('t1', 'always')])).notices.filter((n) => n.startsWith('Skill is denied'))).toEqual([]);
});

test('a PreToolUse hook matching Skill runs on its calls: one that blocks leaves the call permission_denied; one that lets it through, Skill ok', async () => {
  const blocking = project();
  writeFileSync(join(blocking, 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Skill', hooks: [{ type: 'command', command: "echo 'no skills here' >&2; exit 2" }] }] } }));
  const blocked = await hosted(blocking, { settings: ['hooks.json'] }, [skill('t1', 'always')], [{ id: 't2', name: 'open_file', arguments: { path: 'docs/a/b.md' } }]);
  expect([blocked.outcomes, blocked.verified]).toEqual([['Skill permission_denied/hook', 'open_file ok'], true]);
  const passing = project();
  writeFileSync(join(passing, 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Skill', hooks: [{ type: 'command', command: 'exit 0' }] }] } }));
  const passed = await hosted(passing, { settings: ['hooks.json'] }, [skill('t1', 'always')]);
  expect([passed.outcomes, passed.verified]).toEqual([['Skill ok'], true]);
});
