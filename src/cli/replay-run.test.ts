/**
 * `caplab run --replay FILE`: recorded Messages API responses answer the
 * excerpt task, labelled replayed everywhere, usage as the file recorded it,
 * and the run dir verifies; a bad file is refused before anything runs.
 */
import { expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS, sha256Hex } from '../contract/index.ts';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { HELP } from './help.ts';
import { testIo } from './test-io.ts';
import { copyRun, readEvents, rechain, verifyJson } from './verify-test-kit.ts';

const EXAMPLE = join(import.meta.dir, '../../fixtures/examples/excerpt.replay.jsonl');
const exampleText = () => readFileSync(EXAMPLE, 'utf8');
const exampleLines = () => exampleText().trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
const COUNTS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const;
/** Each usage count summed over the example's lines. */
const fileTotals = () => Object.fromEntries(COUNTS.map((key) => [key, exampleLines().reduce((sum, line) => sum + line['usage'][key], 0)]));

async function run(args: string[], cwd = scratchDir('caplab-replay-run-'), env: Record<string, string> = {}) {
  const io = testIo(cwd, env);
  const code = await cli(args, io);
  return { code, io, cwd };
}

async function replayJson(transport: 'local' | 'mcp', runId: string) {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  const { code, io } = await run(['run', '--replay', EXAMPLE, '--transport', transport, '--json', '--run-id', runId], undefined, env);
  return { code, doc: JSON.parse(io.out()) as Record<string, any>, err: io.err() };
}

test.each(['local', 'mcp'] as const)('run --replay the example over %s: accepted, every response replayed, usage the file’s, and the run dir verifies', async (transport) => {
  const { code, doc, err } = await replayJson(transport, `replay-${transport}`);
  expect({ code, err }).toEqual({ code: 0, err: '' });
  expect([doc.accepted, doc.transport, doc.scripted, doc.origin, doc.model, doc.scenario]).toEqual([true, transport, false, 'replayed', 'replayed:claude-sonnet-4-5-20250929', null]);
  expect([doc.requests, doc.tool_calls, doc.mcp_calls]).toEqual([3, 3, transport === 'mcp' ? 2 : 0]);
  expect(doc.request_log.map((r: any) => r.response)).toEqual(exampleLines().map((l) => ({ id: l['id'], scripted: false, origin: 'replayed', stop_reason: l['stop_reason'] })));
  expect(doc.usage.synthetic).toBe(false);
  expect(doc.usage.note).toContain('as recorded in the replay file');
  expect(doc.usage.total).toEqual(fileTotals());
  expect(doc.usage.per_request.map((r: any) => r.cache_read_input_tokens)).toEqual(exampleLines().map((l) => l['usage'].cache_read_input_tokens));

  const events = readEvents(doc.run_dir);
  const start = events.find((e) => e.type === 'run_start')!;
  expect(start['scenario']).toBeNull();
  expect(start['model']).toEqual({ name: doc.model, scripted: false, origin: 'replayed', replay: { file: EXAMPLE, sha256: sha256Hex(readFileSync(EXAMPLE)), bytes: readFileSync(EXAMPLE).byteLength, lines: 3 } });
  const responses = events.filter((e) => e.type === 'response');
  expect(responses.map((e) => [e['scripted'], e['origin']])).toEqual([[false, 'replayed'], [false, 'replayed'], [false, 'replayed']]);
  expect(responses.map((e) => e['usage'])).toEqual(exampleLines().map((l) => l['usage']));
  // The response file is the line as read, fields in the file's order.
  for (const [i, line] of exampleLines().entries()) {
    expect(JSON.stringify(JSON.parse(readFileSync(join(doc.run_dir, `requests/0${i + 1}-response.json`), 'utf8')))).toBe(JSON.stringify(line));
  }
  expect(events.find((e) => e.type === 'run_end')!['replay']).toEqual({ lines_used: 3, lines_unused: 0 });

  const verified = await verifyJson(doc.run_dir);
  expect([verified.code, verified.doc.verified, verified.doc['recheck']]).toEqual([0, true, expect.objectContaining({ accepted: true, decided: true })]);
});

test('the human report tags every response [replayed], never [scripted], and totals the file’s usage', async () => {
  const { code, io } = await run(['run', '--replay', EXAMPLE, '--transport', 'local', '--run-id', 'human']);
  const out = io.out();
  expect(code).toBe(0);
  expect(out).toContain('— replay ');
  expect(out).toContain('model: replayed:claude-sonnet-4-5-20250929 (recorded responses, one per request; usage as recorded in the file)');
  expect(out.match(/\[replayed\]/g)?.length).toBe(3);
  expect(out).not.toContain('scripted');
  expect(out).not.toContain('synthetic');
  const t = fileTotals();
  expect(out).toContain(`model: replayed (usage as recorded in the replay file: input ${t['input_tokens']}, output ${t['output_tokens']}, cache created ${t['cache_creation_input_tokens']}, cache read ${t['cache_read_input_tokens']})`);
});

test('lines past the final answer are recorded unused; a file that runs out ends the run as a script that ran out, naming the line', async () => {
  const cwd = scratchDir('caplab-replay-lines-');
  const lines = exampleText().trimEnd().split('\n');
  writeFileSync(join(cwd, 'long.jsonl'), `${[...lines, lines[2]].join('\n')}\n`);
  writeFileSync(join(cwd, 'short.jsonl'), `${lines.slice(0, 2).join('\n')}\n`);
  const long = await run(['run', '--replay', 'long.jsonl', '--transport', 'local', '--json', '--run-id', 'long'], cwd);
  const longDir = JSON.parse(long.io.out()).run_dir;
  expect(readEvents(longDir).find((e) => e.type === 'run_end')!['replay']).toEqual({ lines_used: 3, lines_unused: 1 });
  expect(readEvents(longDir).find((e) => e.type === 'run_start')!['model']).toMatchObject({ replay: { file: 'long.jsonl', lines: 4 } });

  const short = await run(['run', '--replay', 'short.jsonl', '--transport', 'local', '--json', '--run-id', 'short'], cwd);
  const doc = JSON.parse(short.io.out());
  expect(doc.stop).toBe('script_exhausted');
  const events = readEvents(doc.run_dir);
  expect(events.filter((e) => e.type === 'response').at(-1)).toMatchObject({ request_id: 'req-03', missing: true, reason: 'the replay file has no line 3: all 2 were used' });
  expect(events.find((e) => e.type === 'run_end')!['replay']).toEqual({ lines_used: 2, lines_unused: 0 });
  expect((await verifyJson(doc.run_dir)).doc.verified).toBe(true);
});

test('a hostile but well-formed replay runs and verifies: escaped NUL and lone surrogates, a duplicate key, unknown fields, counts near 2^53, a max_tokens finish', async () => {
  const cwd = scratchDir('caplab-replay-hostile-');
  const [first, second, third] = exampleLines() as [Record<string, any>, Record<string, any>, Record<string, any>];
  first['content'][0].text = 'NUL \u0000, lone \ud800 and \udfff, bidi \u202e';
  first['container'] = { id: 'container_011CZ', expires_at: '2025-10-01T00:00:00Z' };
  first['usage'].input_tokens = 2 ** 52;
  third['stop_reason'] = 'max_tokens';
  // JSON.parse keeps the last of two equal keys; the response file records that one, once.
  const twice = JSON.stringify(second).replace('"stop_reason":"tool_use"', '"stop_reason":"end_turn","stop_reason":"tool_use"');
  writeFileSync(join(cwd, 'hostile.jsonl'), `${JSON.stringify(first)}\n${twice}\n${JSON.stringify(third)}\n`);
  const { code, io } = await run(['run', '--replay', 'hostile.jsonl', '--transport', 'local', '--json', '--run-id', 'hostile'], cwd);
  const doc = JSON.parse(io.out());
  expect([code, doc.accepted, doc.stop]).toEqual([0, true, 'final_answer']);
  expect(doc.usage.total.input_tokens).toBe(2 ** 52 + second['usage'].input_tokens + third['usage'].input_tokens);
  const file = (n: number) => JSON.parse(readFileSync(join(doc.run_dir, `requests/0${n}-response.json`), 'utf8'));
  expect([file(1).content[0].text, file(1).container]).toEqual([first['content'][0].text, first['container']]);
  expect(readFileSync(join(doc.run_dir, 'requests/02-response.json'), 'utf8').match(/"stop_reason"/g)?.length).toBe(1);
  expect(file(3).stop_reason).toBe('max_tokens');
  expect((await verifyJson(doc.run_dir)).doc.verified).toBe(true);
});

test('a bad replay file exits 2 before any work, naming its line and field; nothing printed on stdout, no run dir', async () => {
  const cwd = scratchDir('caplab-replay-bad-');
  const lines = exampleText().trimEnd().split('\n');
  const thinking = JSON.parse(lines[1]!);
  thinking.content.unshift({ type: 'thinking', thinking: 'Both are in.', signature: 'EqQBCgIYAhIM' });
  writeFileSync(join(cwd, 'thinking.jsonl'), `${lines[0]}\n${JSON.stringify(thinking)}\n${lines[2]}\n`);
  const { code, io } = await run(['run', '--replay', 'thinking.jsonl', '--transport', 'local', '--run-id', 'bad'], cwd);
  expect(code).toBe(2);
  expect(io.out()).toBe('');
  expect(io.err()).toBe('caplab: invalid_arguments/bad_replay: thinking.jsonl: line 2: content[0].type: block type "thinking" is not replayed (only text and tool_use)\n');
  expect(existsSync(join(cwd, 'caplab-runs'))).toBe(false);
});

test('--replay with --scenario, on demo, or empty is a usage error (exit 2); run names both ways in its help', async () => {
  const both = await run(['run', '--replay', EXAMPLE, '--scenario', 'happy', '--transport', 'local']);
  expect([both.code, both.io.err()]).toEqual([2, expect.stringContaining('--scenario and --replay both say what answers the run; give one')]);
  const demo = await run(['demo', '--replay', EXAMPLE]);
  expect([demo.code, demo.io.err()]).toEqual([2, expect.stringContaining('caplab run --replay')]);
  const empty = await run(['run', '--replay', '']);
  expect([empty.code, empty.io.err()]).toEqual([2, expect.stringContaining('--replay needs a file')]);
  const none = await run(['run']);
  expect([none.code, none.io.err()]).toEqual([2, expect.stringContaining('run needs --scenario NAME|FILE or --replay FILE')]);
  expect(HELP['run']).toContain('--replay FILE');
  // help.ts imports nothing of the host (a cold --help stays cheap), so the limit is written out and held here.
  expect(HELP['run']).toContain(`at most ${LIMITS.replayBytes / 1024 / 1024} MiB, replayBytes;`);
  expect(HELP['main']).toContain('run --replay FILE');
});

test('verify holds a replayed record to its origin: a response relabelled scripted, or usage not the file’s, does not verify', async () => {
  const { doc } = await replayJson('local', 'forge');
  const parent = scratchDir('caplab-replay-forge-');
  const relabel = copyRun(doc.run_dir, parent);
  rechain(relabel, (events) => events.map((e) => (e.type === 'response' && e['request_id'] === 'req-02' ? { ...e, scripted: true, origin: undefined } : e)));
  const relabelled = await verifyJson(relabel);
  expect([relabelled.code, relabelled.doc.error?.kind]).toEqual([1, 'response_mismatch']);
  expect(JSON.stringify(relabelled.doc)).toContain("the response event's scripted is not the run's (run_start records a replayed model)");

  const usage = copyRun(doc.run_dir, parent);
  rechain(usage, (events) => events.map((e) => (e.type === 'response' && e['request_id'] === 'req-01' ? { ...e, usage: { ...(e['usage'] as object), cache_read_input_tokens: 999 } } : e)));
  expect((await verifyJson(usage)).doc.error?.kind).toBe('response_mismatch');

  // A replayed record whose run_start is relabelled scripted: its response files are no scripted ones.
  const start = copyRun(doc.run_dir, parent);
  rechain(start, (events) => events.map((e) => (e.type === 'run_start' ? { ...e, model: { name: 'scripted:happy', scripted: true } } : e.type === 'response' ? { ...e, scripted: true, origin: undefined } : e)));
  const asScripted = await verifyJson(start);
  expect([asScripted.code, asScripted.doc.error?.kind]).toEqual([1, 'response_mismatch']);
  expect(JSON.stringify(asScripted.doc)).toContain('does not say scripted: true');
});
