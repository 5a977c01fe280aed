import { expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { LIMITS } from '../contract/index.ts';
import { join } from 'node:path';
import { cli } from './cli.ts';
import { HELP } from './help.ts';
import { parseRunFlags } from './run-command.ts';
import { excerptCli } from './testing/excerpt-cli.ts';
import { testIo } from './test-io.ts';
import { scratchDir } from '../../test/scratch.ts';

const temp = () => scratchDir('caplab-cli-');

async function runJson(args: string[], cwd = temp(), env: Record<string, string> = {}) {
  const io = testIo(cwd, env);
  const code = await cli(args, io);
  return { code, doc: JSON.parse(io.out()) as Record<string, any>, io, cwd };
}

test('demo --transport local --json: accepted, 3 requests, 3 calls, card path and sha256, scripted, synthetic usage', async () => {
  const { code, doc } = await runJson(['demo', '--transport', 'local', '--json', '--run-id', 'r1']);
  expect(code).toBe(0);
  expect(doc.accepted).toBe(true);
  expect(doc.scripted).toBe(true);
  expect([doc.requests, doc.tool_calls]).toEqual([3, 3]);
  expect(doc.usage.synthetic).toBe(true);
  expect(doc.acceptance.checks.filter((c: any) => c.verdict === 'fail')).toEqual([]);
  expect(doc.acceptance.checks.find((c: any) => c.id === 'most_representative').verdict).toBe('not_verifiable');
  const card = readFileSync(doc.card.path);
  expect(new Bun.CryptoHasher('sha256').update(card).digest('hex')).toBe(doc.card.sha256);
  expect(doc.request_log.map((r: any) => r.disclosed_sources)).toEqual([[], ['alpha', 'beta'], ['alpha', 'beta']]);
});

test('human demo output streams the requests, calls, an all-✓ table and the card path', async () => {
  const io = testIo(temp());
  const code = await cli(['demo', '--transport', 'local', '--run-id', 'h1'], io);
  const out = io.out();
  expect(code).toBe(0);
  expect(out.match(/^→ req-0\d/gm)?.length).toBe(3);
  expect(out.match(/toolu_0\d act-0\d/g)?.length).toBe(3);
  expect(out).not.toContain('✗');
  expect(out).toContain('ACCEPTED');
  expect(out).toMatch(/card: +\/.*caplab-runs\/h1\/card\/excerpt-card\.md/);
  expect(out).not.toContain('\x1b['); // not a TTY: no colour
});

test('same-batch: both reads run, the create is refused (precondition/sources_not_disclosed), no card, exit 1', async () => {
  const { code, doc, cwd } = await runJson(['run', '--scenario', 'same-batch', '--transport', 'local', '--json', '--run-id', 'sb']);
  expect(code).toBe(1);
  expect(doc.accepted).toBe(false);
  const [a, b, c] = doc.calls;
  expect([a.result.ok, b.result.ok, a.handler_entered, b.handler_entered]).toEqual([true, true, true, true]);
  expect([c.name, c.result.class, c.result.kind, c.handler_entered]).toEqual(['create_card', 'precondition', 'sources_not_disclosed', false]);
  expect(existsSync(join(cwd, 'caplab-runs/sb/card'))).toBe(false);
  expect(doc.card).toBeNull();
});

test.each([
  ['quote-not-verbatim', 'invalid_arguments', 'quote_not_verbatim'],
  ['extra-field', 'invalid_arguments', 'extra_field'],
  ['unknown-tool', 'invalid_arguments', 'unknown_tool'],
])('%s ends not accepted with %s/%s', async (scenario, errorClass, kind) => {
  const { code, doc } = await runJson(['run', '--scenario', scenario, '--transport', 'local', '--json']);
  expect(code).toBe(1);
  expect(doc.accepted).toBe(false);
  expect(doc.calls.some((c: any) => c.result.class === errorClass && c.result.kind === kind)).toBe(true);
  expect(doc.card).toBeNull();
});

test('finish-without-card: the model says done, acceptance is not granted', async () => {
  const { code, doc } = await runJson(['run', '--scenario', 'finish-without-card', '--transport', 'local', '--json']);
  expect(code).toBe(1);
  expect(doc.acceptance.checks.find((c: any) => c.id === 'card_exists').verdict).toBe('fail');
});

test('two runs with the same --run-id write byte-identical cards', async () => {
  const one = await runJson(['demo', '--transport', 'local', '--json', '--run-id', 'same']);
  const two = await runJson(['demo', '--transport', 'local', '--json', '--run-id', 'same']);
  expect(one.doc.card.path).not.toBe(two.doc.card.path);
  expect(readFileSync(one.doc.card.path)).toEqual(readFileSync(two.doc.card.path));
});

test.each(['local', 'mcp'])('with --run-id and SOURCE_DATE_EPOCH two runs (%s) give byte-identical run dirs', async (transport) => {
  const env = { SOURCE_DATE_EPOCH: '1700000000', PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  const cwds = [temp(), temp()];
  try {
    const one = await runJson(['demo', '--transport', transport, '--json', '--run-id', 'det'], cwds[0], env);
    const two = await runJson(['demo', '--transport', transport, '--json', '--run-id', 'det'], cwds[1], env);
    expect([one.code, two.code, one.doc.transport, two.doc.transport]).toEqual([0, 0, transport, transport]);
    const files = (dir: string): string[] =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(dir.length))
        .sort();
    const a = one.doc.run_dir as string;
    const b = two.doc.run_dir as string;
    expect(files(a)).toEqual(files(b));
    expect(files(a)).toContain('/ledger.jsonl');
    expect(files(a).length).toBeGreaterThan(8);
    for (const file of files(a)) expect(readFileSync(join(b, file))).toEqual(readFileSync(join(a, file)));
    // Over MCP the server's stderr is recorded, with its pid replaced.
    if (transport === 'mcp') expect(readFileSync(join(a, 'ledger.jsonl'), 'utf8')).toContain('pid <pid>');
  } finally {
    for (const cwd of cwds) rmSync(cwd, { recursive: true, force: true });
  }
});

test('usage errors exit 2 with a message; a taken run dir is refused and not touched', async () => {
  const io = testIo(temp());
  expect(await cli(['demo', '--transport', 'carrier-pigeon'], io)).toBe(2);
  expect(io.err()).toContain('--transport must be mcp, local or http');
  expect(await cli(['demo', '--bogus'], io)).toBe(2);
  expect(await cli(['run'], io)).toBe(2);
  expect(await cli(['run', '--scenario', 'no-such-scenario'], io)).toBe(2);
  expect(io.err()).toContain('unknown_scenario');
  const first = await runJson(['demo', '--transport', 'local', '--json', '--run-id', 'taken']);
  const second = testIo(first.cwd);
  expect(await cli(['demo', '--transport', 'local', '--run-id', 'taken'], second)).toBe(2);
  expect(second.err()).toContain('target_exists');
});

test('over MCP (dev launch): the demo is accepted with 2 of 3 calls over MCP and three correlated ids each; same-batch is still refused', async () => {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  const demo = await runJson(['demo', '--json', '--run-id', 'mcp-demo'], temp(), env);
  expect([demo.code, demo.doc.accepted, demo.doc.transport, demo.doc.server.protocolVersion, demo.doc.mcp_calls]).toEqual([0, true, 'mcp', '2025-06-18', 2]);
  expect(demo.doc.server.serverInfo.name).toBe('caplab-fixture');
  const ids = demo.doc.calls.filter((c: any) => c.via === 'mcp').map((c: any) => [c.tool_call_id, c.action_id, c.jsonrpc_id]);
  expect(ids).toEqual([['toolu_01', 'act-01', expect.any(Number)], ['toolu_02', 'act-02', expect.any(Number)]]);
  const batch = await runJson(['run', '--scenario', 'same-batch', '--json'], temp(), env);
  const create = batch.doc.calls.find((c: any) => c.name === 'create_card');
  expect([batch.code, batch.doc.transport, create.result.kind, create.handler_entered]).toEqual([1, 'mcp', 'sources_not_disclosed', false]);
});

test('--durable is a demo, run and check flag, said in their help; absent, flags say nothing of it', () => {
  expect(parseRunFlags(['--durable'], 'demo', excerptCli())).toMatchObject({ ok: true, value: { durable: true } });
  const plain = parseRunFlags([], 'demo', excerptCli());
  expect(plain.ok && !('durable' in plain.value)).toBe(true);
  for (const command of ['demo', 'run', 'check']) expect(HELP[command]).toContain('--durable');
});

test('a run that fails at a bound before acceptance prints no empty "Acceptance:" heading, but how it ended', async () => {
  const cwd = temp();
  const happy = JSON.parse(readFileSync(join(import.meta.dir, '../../fixtures/scenarios/happy.json'), 'utf8'));
  happy.responses[0].tool_calls = Array.from({ length: LIMITS.callsPerResponse + 1 }, (_, i) => ({ id: `t${i}`, name: 'read_source', arguments: { source_id: 'alpha' } }));
  writeFileSync(join(cwd, 'many-calls.json'), JSON.stringify(happy));
  const io = testIo(cwd);
  expect(await cli(['run', '--scenario', join(cwd, 'many-calls.json'), '--transport', 'local', '--run-id', 'mc'], io)).toBe(1);
  const out = io.out();
  expect(out).not.toContain('Acceptance:');
  expect(out).toContain('NOT ACCEPTED — failed: invalid_arguments/too_many_calls');
  // A run that reaches acceptance still prints the table under its heading.
  const demo = testIo(temp());
  expect(await cli(['demo', '--transport', 'local', '--run-id', 'd'], demo)).toBe(0);
  expect(demo.out()).toMatch(/\nAcceptance:\n  ✓ /);
});

test('run --scenario FILE reads a relative path from the caller’s working directory (io.cwd), not the process’s', async () => {
  const cwd = temp();
  writeFileSync(join(cwd, 'mine.json'), readFileSync(join(import.meta.dir, '../../fixtures/scenarios/happy.json'), 'utf8').replace('"name": "happy"', '"name": "mine"'));
  const io = testIo(cwd);
  expect(await cli(['run', '--scenario', 'mine.json', '--transport', 'local', '--json', '--run-id', 'rel'], io)).toBe(0);
  expect(JSON.parse(io.out()).scenario).toBe('mine');
});
