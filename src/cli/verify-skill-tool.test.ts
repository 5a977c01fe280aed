import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { copyRun, demoRunDir, rechain, verifyJson, type Event } from './verify-test-kit.ts';

/**
 * verify over skill tool mode records (format 10; format 9 before dynamic discovery), each forgery re-chained
 * (lines, seq, prev and seal recomputed): each is refused, naming the request.
 */

const parent = scratchDir('caplab-verify-skill-tool-');

async function scenarioRun(name: string, transport: 'local' | 'mcp' = 'local'): Promise<string> {
  const cwd = scratchDir('caplab-verify-skill-tool-run-');
  const code = await cli(['run', '--scenario', name, '--transport', transport, '--out', 'run'], testIo(cwd));
  if (code !== 0) throw new Error(`${name} exited ${code}`);
  return join(cwd, 'run');
}

const TOOL = await scenarioRun('skill-tool');
const DEMO = await demoRunDir(parent);

function forgedEvent(dir: string, pick: (e: Event) => boolean, edit: (e: Event) => Event): string {
  const copy = copyRun(dir, parent);
  rechain(copy, (events) => {
    const at = events.findIndex(pick);
    if (at < 0) throw new Error('no such event');
    return events.map((e, i) => (i === at ? edit(structuredClone(e)) : e));
  });
  return copy;
}

async function refusal(dir: string): Promise<{ code: number; kind: string | undefined; message: string }> {
  const { code, doc } = await verifyJson(dir);
  return { code, kind: doc.error?.kind, message: doc.error?.message ?? '' };
}

const isRequest = (id: string) => (e: Event) => e.type === 'request' && e['request_id'] === id;

test('the skill tool runs verify as written (over MCP too), and name format 10', async () => {
  for (const dir of [TOOL, await scenarioRun('skill-once', 'mcp'), await scenarioRun('skill-unknown')]) {
    const { code, doc } = await verifyJson(dir);
    expect(code).toBe(0);
    expect(doc['format']).toBe('caplab.ledger/10');
  }
  expect((await verifyJson(DEMO)).doc['format']).toBe('caplab.ledger/4');
});

test("a name added to a request's skill_catalog: catalog_mismatch, naming the request", async () => {
  const copy = forgedEvent(TOOL, isRequest('req-02'), (e) => ({ ...e, skill_catalog: ['excerpt-card', 'other'] }));
  const refused = await refusal(copy);
  expect(refused.code).toBe(1);
  expect(refused.kind).toBe('catalog_mismatch');
  expect(refused.message).toContain('request req-02');
});

test('skill_catalog on a direct-mode request: catalog_mismatch (the record names format 4, which has no such field: refused either way)', async () => {
  const copy = forgedEvent(DEMO, isRequest('req-01'), (e) => ({ ...e, skill_catalog: ['excerpt-card'] }));
  expect((await refusal(copy)).code).toBe(1);
});

test('an adoption via a tool_use id that is not a Skill call: adoption_mismatch, naming the request', async () => {
  // toolu_02 is a read_source call answered in req-03's payload.
  const copy = forgedEvent(TOOL, isRequest('req-03'), (e) => ({ ...e, method: { ...(e['method'] as object), adopted: true, instructions_present: true, tool_use_id: 'toolu_02' } }));
  const refused = await refusal(copy);
  expect(refused.kind).toBe('adoption_mismatch');
  expect(refused.message).toContain('request req-03');
  expect(refused.message).toContain('toolu_02');
});

test('an adoption claimed with no tool_use_id, and one recorded where no Skill result is: adoption_mismatch', async () => {
  const claimed = forgedEvent(TOOL, isRequest('req-03'), (e) => ({ ...e, method: { ...(e['method'] as object), adopted: true } }));
  expect((await refusal(claimed)).kind).toBe('adoption_mismatch');
  const early = forgedEvent(TOOL, isRequest('req-01'), (e) => ({ ...e, method: { name: 'excerpt-card', via: 'skill_tool', adopted: false } }));
  expect((await refusal(early)).message).toContain('no Skill result');
});

test('an adoption recorded not via skill_tool in tool mode: adoption_mismatch', async () => {
  const copy = forgedEvent(TOOL, isRequest('req-02'), (e) => {
    const { via: _via, ...method } = e['method'] as Record<string, unknown>;
    return { ...e, method };
  });
  expect((await refusal(copy)).kind).toBe('adoption_mismatch');
});

test("a Skill result against run_start's package identity (format 10): a forged version is result_mismatch, naming the request", async () => {
  const copy = forgedEvent(TOOL, (e) => e.type === 'run_start', (e) => ({ ...e, skill_packages: (e['skill_packages'] as Event[]).map((p) => ({ ...p, version: '9.9.9' })) }));
  const refused = await refusal(copy);
  expect(refused.kind).toBe('result_mismatch');
  expect(refused.message).toMatch(/^request req-02: the Skill result answering \S+ \(excerpt-card\) its text does not open as excerpt-card 9\.9\.9/);
});
