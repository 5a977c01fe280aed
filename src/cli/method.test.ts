import { expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assetText } from '../assets/index.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { scratchDir } from '../../test/scratch.ts';

async function run(args: string[]) {
  const io = testIo(scratchDir('caplab-method-'));
  const code = await cli([...args, '--transport', 'local', '--json'], io);
  return { code, doc: JSON.parse(io.out()) as Record<string, any> };
}

test('the demo adopts excerpt-card per request, with the stage and the resource hashes found in that payload', async () => {
  const { code, doc } = await run(['demo']);
  expect(code).toBe(0);
  const methods = doc.request_log.map((r: any) => r.method);
  expect(methods.map((m: any) => [m.name, m.stage, m.instructions_present])).toEqual([
    ['excerpt-card', 'read', true],
    ['excerpt-card', 'create', true],
    ['excerpt-card', 'finish', true],
  ]);
  const paths = (m: any) => m.resources_present.map((r: any) => r.path);
  // The read request does not carry the create stage's layout reference; the create request does.
  expect(paths(methods[0])).not.toContain('references/card-layout.md');
  expect(paths(methods[1])).toContain('references/card-layout.md');
  // Presence is a fact about the recorded bytes: each reported resource hash is found in that payload file.
  for (const [i, method] of methods.entries()) {
    const payload = JSON.parse(readFileSync(join(doc.run_dir, doc.request_log[i].payload.path), 'utf8'));
    const system = payload.system.map((b: any) => b.text).join('\n');
    expect(method.resources_present.length).toBeGreaterThan(0);
    for (const r of method.resources_present) {
      const text = assetText(`skills/excerpt-card/${r.path}`)!;
      expect(new Bun.CryptoHasher('sha256').update(text).digest('hex')).toBe(r.sha256);
      expect(system).toContain(text);
    }
  }
});

test('method-same-batch: with the method adopted the create is still refused (sources_not_disclosed)', async () => {
  const { code, doc } = await run(['run', '--scenario', 'method-same-batch']);
  expect(code).toBe(1);
  expect(doc.request_log[0].method.name).toBe('excerpt-card');
  const create = doc.calls.find((c: any) => c.name === 'create_card');
  expect([create.result.class, create.result.kind, create.handler_entered]).toEqual(['precondition', 'sources_not_disclosed', false]);
  expect(existsSync(join(doc.run_dir, 'card'))).toBe(false);
});

test('--no-skill sends no method material and records no adoption', async () => {
  const { code, doc } = await run(['demo', '--no-skill']);
  expect(code).toBe(0);
  expect(doc.request_log.map((r: any) => r.method)).toEqual([null, null, null]);
});

/** A folder holding one plain Agent Skills package, and a copy of the happy scenario that adopts it. */
function plainSetup(): { skills: string; scenario: string; body: string } {
  const dir = scratchDir('caplab-plain-');
  const body = '# Excerpt notes\n\nRead alpha, then beta; quote each verbatim.\n';
  mkdirSync(join(dir, 'skills/plain-notes'), { recursive: true });
  writeFileSync(join(dir, 'skills/plain-notes/SKILL.md'), `---\nname: plain-notes\ndescription: Plain Agent Skills notes.\n---\n${body}`);
  const happy = JSON.parse(assetText('fixtures/scenarios/happy.json')!);
  writeFileSync(join(dir, 'plain.json'), JSON.stringify({ ...happy, name: 'plain', skill: 'plain-notes' }));
  return { skills: join(dir, 'skills'), scenario: join(dir, 'plain.json'), body };
}

test('caplab skills lists a plain package as plain: body only, no stages, no pinned hashes', async () => {
  const { skills } = plainSetup();
  const io = testIo(scratchDir('caplab-method-'));
  expect(await cli(['skills', '--skills', skills], io)).toBe(0);
  expect(io.out()).toContain('plain-notes  [bound]');
  expect(io.out()).toContain('  plain: body only; no stages, no pinned hashes');
});

test('a run adopting a plain package sends its body in every request and records {plain: true, body: {sha256, bytes}}', async () => {
  const { skills, scenario, body } = plainSetup();
  const { code, doc } = await run(['run', '--scenario', scenario, '--skills', skills]);
  expect(code).toBe(0);
  const bytes = new TextEncoder().encode(body);
  const named = { plain: true, name: 'plain-notes', body: { sha256: new Bun.CryptoHasher('sha256').update(bytes).digest('hex'), bytes: bytes.byteLength } };
  const start = JSON.parse(readFileSync(join(doc.run_dir, 'ledger.jsonl'), 'utf8').split('\n')[0]!);
  expect(start.type).toBe('run_start');
  expect(start.method).toMatchObject(named);
  expect(doc.request_log.map((r: any) => r.method)).toEqual(doc.request_log.map(() => ({ ...named, body_present: true })));
  for (const request of doc.request_log) {
    const payload = JSON.parse(readFileSync(join(doc.run_dir, request.payload.path), 'utf8'));
    expect(payload.system.some((b: any) => b.text.includes(body))).toBe(true);
  }
  const verified = testIo(scratchDir('caplab-method-'));
  expect(await cli(['verify', doc.run_dir], verified)).toBe(0);
  // A plain method is a format 3 shape, which format 4 (every run's) has: the record names 4, seal and run_end alike.
  expect(verified.out()).toContain('format  caplab.ledger/4');
});

test('--skills DIR and --scenario FILE are read relative to the caller’s working directory (io.cwd), for skills and run alike', async () => {
  const { skills } = plainSetup();
  const root = join(skills, '..');
  const listed = testIo(root);
  expect(await cli(['skills', '--skills', 'skills'], listed)).toBe(0);
  expect(listed.out()).toContain('plain-notes  [bound]');
  const ran = testIo(root);
  expect(await cli(['run', '--scenario', 'plain.json', '--skills', 'skills', '--transport', 'local', '--json', '--run-id', 'rel'], ran)).toBe(0);
  expect(JSON.parse(ran.out()).request_log[0].method).toMatchObject({ plain: true, name: 'plain-notes' });
});
