import { expect, test } from 'bun:test';
import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from '../cli/cli.ts';
import { testIo } from '../cli/test-io.ts';
import { rechain, readEvents } from '../cli/verify-test-kit.ts';
import { verifyDir } from '../cli/verify-command.ts';
import { loadRechecks } from '../cli/tasks.ts';
import { EVENT_TYPES } from '../ledger/index.ts';
import { readFound, renderReport, RENDERERS } from './index.ts';
import { nest } from './tree.ts';
import { open, project, projectTask, put, run } from '../harness/testing/discovery-project.ts';

const root = join(import.meta.dir, '..', '..');
const parent = scratchDir('caplab-report-render-');

async function page(dir: string): Promise<{ code: number; html: string }> {
  const out = join(scratchDir('caplab-report-page-'), 'page.html');
  const io = testIo('/');
  const code = await cli(['report', dir, '--out', out], io);
  return { code, html: readFileSync(out, 'utf8') };
}

const raws = (html: string): number => html.split('class="raw"').length - 1;

test('one renderer per event type of src/ledger/events.ts, and no other', () => {
  expect(Object.keys(RENDERERS).sort()).toEqual([...EVENT_TYPES].sort());
  for (const renderer of Object.values(RENDERERS)) expect(['head', 'timeline', 'tail']).toContain(renderer.place);
});

test('every run dir check writes renders with nothing raw; an invented type shows raw; together they cover every event type', async () => {
  const out = join(parent, 'check');
  expect(await cli(['check', '--out', out], testIo(parent))).toBe(0);
  const seen = new Set<string>();
  const bad: string[] = [];
  for (const name of readdirSync(out).sort()) {
    const dir = join(out, name);
    const { code, html } = await page(dir);
    for (const event of readEvents(dir)) seen.add(event.type);
    if (code !== 0 || raws(html) !== 0 || !html.includes('data-verdict="verifies"')) bad.push(`${name}: exit ${code}, ${raws(html)} raw`);
  }
  expect(bad).toEqual([]);
  expect(seen.size).toBeGreaterThan(0);
  // Skill discovery (format 10) is no built-in scenario: a tool-mode run over a project whose touch makes one
  // package visible by its paths and finds a trusted nested folder holding another and a held one.
  const cwd = project(join(parent, 'discovery'));
  put(join(cwd, 'docs/a/.claude/skills/held-one/SKILL.md'), '---\ndescription: Held.\npaths: x/**\n---\nHeld body.\n');
  const discovered = await run(cwd, { trustProject: true }, [open('t1', 'docs/a/b.md')]);
  expect(discovered.verified).toBe('verified');
  const dir = join(cwd, 'run');
  const drawn = renderReport({ dir, verdict: await verifyDir(dir, async () => new Map([['project', projectTask(cwd)]])), run: readFound(dir) });
  for (const event of readEvents(dir)) seen.add(event.type);
  expect([raws(drawn), drawn.includes('data-verdict="verifies"')]).toEqual([0, true]);
  expect(drawn).toContain('skill visible: doc-style');
  expect(drawn).toContain('skill visible: nested-notes');
  expect(drawn).toContain('held-one: held by paths');
  expect(drawn).toMatch(/<dt>by call<\/dt><dd><a href="#e\d+">act-01<\/a>/);
  // An event of a type no renderer knows: the record does not verify, the event is shown raw, not dropped.
  const invented = join(parent, 'invented');
  cpSync(join(out, 'demo-local'), invented, { recursive: true });
  rechain(invented, (events) => [...events.slice(0, -1), { type: 'invented_event', note: '<b>raw</b>' }, events[events.length - 1]!]);
  const { code, html } = await page(invented);
  expect(code).toBe(1);
  expect(raws(html)).toBe(1);
  expect(html).toContain('event of unknown type invented_event');
  expect(html).toContain('&quot;note&quot;: &quot;&lt;b&gt;raw&lt;/b&gt;&quot;');
  seen.add('invented_event');
  expect(EVENT_TYPES.filter((type) => !seen.has(type))).toEqual([]);
}, 300_000);

test('the committed records of older formats (/2, /3, /5, /6) render, verifying, nothing raw', async () => {
  const records = join(root, 'fixtures/records');
  const names = readdirSync(records).sort();
  expect(names).toContain('v2-demo-mcp');
  for (const name of names) {
    const copy = join(parent, `old-${name}`);
    cpSync(join(records, name), copy, { recursive: true });
    const { code, html } = await page(copy);
    expect({ name, code, raw: raws(html), verdict: html.includes('data-verdict="verifies"'), format: /<dt>format<\/dt><dd>caplab\.ledger\/\d<\/dd>/.test(html) }).toEqual({ name, code: 0, raw: 0, verdict: true, format: true });
  }
});

test('deterministic: twice, and on a copy at another path, the same bytes', async () => {
  const demo = join(parent, 'det', 'one');
  mkdirSync(join(parent, 'det'));
  expect(await cli(['demo', '--transport', 'local', '--out', demo], testIo(parent))).toBe(0);
  const first = await page(demo);
  const second = await page(demo);
  const elsewhere = join(scratchDir('caplab-report-elsewhere-'), 'deeper', 'another-name');
  cpSync(demo, elsewhere, { recursive: true });
  const copied = await page(elsewhere);
  expect(second.html).toBe(first.html);
  expect(copied.html).toBe(first.html);
  expect(first.html).not.toContain(parent);
  // A copy that does not verify names no path of this machine either.
  const broken = join(scratchDir('caplab-report-broken-'), 'run');
  cpSync(demo, broken, { recursive: true });
  rechain(broken, (events) => events.slice(1));
  const gone = await page(broken);
  expect(gone.html).not.toContain(broken);
  expect(gone.code).toBe(1);
});

test('past maxBytes the later calls are listed by ledger seq, and the top says so; the page stays within the bound', async () => {
  const demo = join(parent, 'cut');
  expect(await cli(['demo', '--transport', 'local', '--out', demo], testIo(parent))).toBe(0);
  const verdict = await verifyDir(demo, loadRechecks);
  const whole = renderReport({ dir: demo, verdict, run: readFound(demo) });
  const max = Buffer.byteLength(whole) + 64 * 1024 - 8000;
  const cut = renderReport({ dir: demo, verdict, run: readFound(demo) }, { maxBytes: max });
  expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(max);
  expect(cut).toContain('This page stops at');
  expect(cut).toMatch(/<li>seq \d+: call create_card<\/li>/);
  expect(whole).not.toContain('This page stops at');
});

test('a subagent\'s events (its agent_id) nest inside its subagent_start, and that inside the parent\'s Agent call', () => {
  const lines = [
    { type: 'request', request_id: 'req-01' },
    { type: 'call', request_id: 'req-01', tool_call_id: 'toolu_agent', name: 'Agent' },
    { type: 'subagent_start', agent_id: 'a1', parent_tool_call_id: 'toolu_agent' },
    { type: 'request', request_id: 'req-01', agent_id: 'a1' },
    { type: 'call', request_id: 'req-01', agent_id: 'a1', tool_call_id: 'toolu_inner', name: 'read_source' },
    { type: 'subagent_end', agent_id: 'a1' },
    { type: 'response', request_id: 'req-01' },
  ].map((event, index) => ({ index, event }));
  const shape = (nodes: ReturnType<typeof nest>): unknown => nodes.map((n) => [n.line.index, shape(n.children)]);
  expect(shape(nest(lines))).toEqual([[0, [[1, [[2, [[3, [[4, []]]], [5, []]]]]], [6, []]]]]);
});

test('as the ledger writes a subagent (its start, its loop and end, then the parent\'s Agent call): the start still nests inside that call', () => {
  const lines = [
    { type: 'request', request_id: 'req-01' },
    { type: 'response', request_id: 'req-01' },
    { type: 'subagent_start', agent_id: 'agent-act-01', tool_call_id: 'toolu_agent', request_id: 'req-01' },
    { type: 'request', request_id: 'act-01.req-01', agent_id: 'agent-act-01' },
    { type: 'response', request_id: 'act-01.req-01', agent_id: 'agent-act-01' },
    { type: 'subagent_end', agent_id: 'agent-act-01' },
    { type: 'call', request_id: 'req-01', tool_call_id: 'toolu_agent', name: 'Agent' },
    { type: 'subagent_start', agent_id: 'agent-act-09', tool_call_id: 'toolu_never', request_id: 'req-01' },
  ].map((event, index) => ({ index, event }));
  const shape = (nodes: ReturnType<typeof nest>): unknown => nodes.map((n) => [n.line.index, shape(n.children)]);
  // A start whose call never comes stays at the top, in its place.
  expect(shape(nest(lines))).toEqual([[0, [[1, []], [6, [[2, [[3, [[4, []]]], [5, []]]]]]]], [7, []]]);
});

test('a record that does not verify labels every section "unverified: as found"', async () => {
  const demo = join(parent, 'tamper');
  expect(await cli(['demo', '--transport', 'local', '--out', demo], testIo(parent))).toBe(0);
  rechain(demo, (events) => events.map((e) => (e.type === 'call' ? { ...e, name: 'forged' } : e)));
  const { code, html } = await page(demo);
  expect(code).toBe(1);
  const sections = html.split('<section class="').length - 1;
  // The verdict's own section says it in words; every other section carries the label.
  expect(html.split('unverified: as found').length - 1).toBe(sections - 1);
  expect(sections).toBeGreaterThanOrEqual(7);
});

test('the hostile scenario and settings (test/report-hostile): their markup, script end, comment opener, quote-breaker and U+202E are text in the bytes', async () => {
  const hostile = join(root, 'test/report-hostile');
  const run = join(parent, 'hostile');
  const io = testIo(parent);
  expect(await cli(['run', '--scenario', join(hostile, 'hostile.scenario.json'), '--settings', join(hostile, 'hostile.settings.json'), '--transport', 'local', '--out', run], io)).toBe(1);
  const { code, html } = await page(run);
  expect(code).toBe(0);
  const body = html.slice(html.indexOf('<body>'));
  for (const opened of ['<img', '<script', '</script', '<!--', '<iframe', '<object', '<embed', '<form', '\u202E']) expect({ opened, found: body.includes(opened) }).toEqual({ opened, found: false });
  const shown = '&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&lt;!--&quot;&#39;&gt;<span class="esc">\\u202E</span>evil';
  // The tool name (its call and the response asking for it), the block reason and its stderr, the final text, and more.
  expect(body).toContain(`call <b>${shown}</b>`);
  expect(body).toContain(`<dt>block</dt><dd>blocked by ${shown}</dd>`);
  expect(body.split(shown).length - 1).toBeGreaterThanOrEqual(7);
  // No attribute of the page carries recorded text: every href is an anchor of a seq.
  expect([...body.matchAll(/href="([^"]*)"/g)].map((m) => m[1]).filter((href) => !/^#e\d+$/.test(href!))).toEqual([]);
  expect([...body.matchAll(/ id="([^"]*)"/g)].map((m) => m[1]).filter((id) => !/^e\d+$/.test(id!))).toEqual([]);
});
