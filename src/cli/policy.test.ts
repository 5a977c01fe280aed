import { expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { scratchDir } from '../../test/scratch.ts';

const hooks = join(import.meta.dir, '../../fixtures/hooks');
const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

async function demo(args: string[]) {
  const cwd = scratchDir('caplab-policy-');
  const io = testIo(cwd, env);
  const code = await cli(['demo', '--transport', 'local', '--json', ...args], io);
  return { code, doc: JSON.parse(io.out()) as Record<string, any>, cwd, err: io.err() };
}

const createCall = (doc: Record<string, any>) => doc.calls.find((c: any) => c.name === 'create_card');

test('a command hook that exits 2 for create_card: permission_denied/hook in the table, no card, exit 1', async () => {
  const { code, doc } = await demo(['--settings', join(hooks, 'deny-create.settings.json'), '--run-id', 'deny-hook']);
  expect(code).toBe(1);
  const call = createCall(doc);
  expect([call.result.class, call.result.kind, call.handler_entered]).toEqual(['permission_denied', 'hook', false]);
  expect(call.hooks[0].exitCode).toBe(2);
  expect(doc.card).toBeNull();
  const cardExists = doc.acceptance.checks.find((c: any) => c.id === 'card_exists');
  expect(cardExists.verdict).toBe('fail');
  expect(cardExists.evidence).toContain('toolu_03: permission_denied/hook');
  expect(existsSync(join(doc.run_dir, 'card'))).toBe(false);
});

test('--deny-tool=create_card and a deny rule in settings refuse it the same way, whatever the skill allows', async () => {
  const flag = await demo(['--deny-tool=create_card']);
  const rule = await demo(['--settings', join(hooks, 'deny-rule.settings.json')]);
  for (const { code, doc } of [flag, rule]) {
    expect(code).toBe(1);
    const call = createCall(doc);
    expect([call.result.class, call.handler_entered]).toEqual(['permission_denied', false]);
    expect(doc.card).toBeNull();
    // The adopted method lists create_card in allowed-tools; it granted nothing.
    expect(doc.request_log[0].method.name).toBe('excerpt-card');
  }
  expect(createCall(flag.doc).result.kind).toBe('flag');
  expect(createCall(rule.doc).result.kind).toBe('rule');
});

test('a hook that returns updatedInput changes the call; the record and the ledger hold both inputs', async () => {
  const { code, doc } = await demo(['--settings', join(hooks, 'rewrite-input.settings.json')]);
  expect(code).toBe(0);
  const call = createCall(doc);
  expect(call.arguments.rewritten).toBeDefined();
  expect(call.arguments.rewritten).not.toEqual(call.arguments.original);
  const card = readFileSync(doc.card.path, 'utf8');
  for (const excerpt of call.arguments.rewritten.excerpts) expect(card).toContain(excerpt.quote);
  for (const excerpt of call.arguments.original.excerpts) expect(card).not.toContain(`> ${excerpt.quote}\n`);
  const ledger = readFileSync(join(doc.run_dir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const event = ledger.find((e) => e.type === 'call' && e.name === 'create_card');
  expect(event.arguments.original).toEqual(call.arguments.original);
  expect(event.arguments.rewritten).toEqual(call.arguments.rewritten);
});

test('settings in the working directory are not applied unless trusted', async () => {
  const cwd = scratchDir('caplab-trust-');
  await Bun.write(join(cwd, '.caplab/settings.json'), JSON.stringify({ permissions: { deny: ['create_card'] } }));
  const untrusted = testIo(cwd, env);
  expect(await cli(['demo', '--transport', 'local', '--json', '--run-id', 'u'], untrusted)).toBe(0);
  expect(untrusted.err()).toContain('.caplab/settings.json');
  const trusted = testIo(cwd, env);
  expect(await cli(['demo', '--transport', 'local', '--json', '--run-id', 't', '--trust-project'], trusted)).toBe(1);
  // One trust flag for every command (probe's too): --trust, with --trust-project as its alias.
  const trustedToo = testIo(cwd, env);
  expect(await cli(['demo', '--transport', 'local', '--json', '--run-id', 't2', '--trust'], trustedToo)).toBe(1);
});
