import { describe, expect, test } from 'bun:test';
import { LIMITS } from '../../contract/index.ts';
import { OutputJudge } from './output-judge.ts';
import { SchemaCompilers, type CompileMode } from './probe-ajv.ts';
import { runProbe } from './probe-run.ts';
import { checkTools } from './probe-tools.ts';
import { versionProfile } from '../client/index.ts';
import { hostileMemory } from './testing/hostile-memory.ts';
import { hostileServer, type HostileMode } from './testing/hostile-server.ts';

/**
 * What probe does with a listing built to break it (issue 20), without a
 * process: the listing is the hostile server's own JSON text, parsed as the
 * transport parses a line. The same servers over stdio, through the CLI,
 * are in src/cli/probe-hostile.test.ts.
 */
const PROFILE = versionProfile('2025-06-18')!;
const FAST = { startupMs: 5_000, requestMs: 5_000 };

/** The entries of a mode's first tools/list page, as JSON.parse reads them (1e400 becomes Infinity). */
function listed(mode: HostileMode, count = 1_000): unknown[] {
  const lines: string[] = [];
  hostileServer(mode, count, (line) => lines.push(line))({ id: 1, method: 'tools/list' });
  return (JSON.parse(lines[0]!) as { result: { tools: unknown[] } }).result.tools;
}

/** Compilers that count what reaches Ajv. */
class CountingCompilers extends SchemaCompilers {
  readonly compiled: object[] = [];
  constructor() {
    super('listing');
  }
  override compile(schema: object, mode: CompileMode) {
    this.compiled.push(schema);
    return super.compile(schema, mode);
  }
}

const kinds = (findings: readonly { kind: string; tool?: unknown }[]) => findings.map((f) => `${f.tool}: ${f.kind}`);

describe('a schema is checked before Ajv sees it', () => {
  test('nested deeper than probeSchemaDepth: schema_too_deep on that tool, never compiled; a shallower one compiles', async () => {
    const compilers = new CountingCompilers();
    const checked = await checkTools(listed('deep_schema'), PROFILE, { compilers });
    expect(checked.findings).toEqual([
      expect.objectContaining({ class: 'protocol', kind: 'schema_too_deep', basis: 'caplab host rule', tool: 'deep', evidence: expect.stringContaining(`nesting deeper than ${LIMITS.probeSchemaDepth}`) }),
    ]);
    expect(compilers.compiled).toHaveLength(1); // `shallow` only
    expect(checked.tools.map((t) => [t.name, typeof t.inputSchemaHash])).toEqual([['deep', 'string'], ['shallow', 'string']]);
  });

  test('a $ref cycle that never descends into the instance: schema_ref_loop before compiling; recursion through items compiles', async () => {
    const compilers = new CountingCompilers();
    const checked = await checkTools(listed('ref_loop'), PROFILE, { compilers });
    expect(kinds(checked.findings)).toEqual(['self_ref: schema_ref_loop', 'def_cycle: schema_ref_loop']);
    expect(checked.findings[0]).toMatchObject({ basis: 'caplab host rule', evidence: '"# → #"' });
    expect(checked.findings[1]?.evidence).toContain('#/$defs/a → #/$defs/b');
    expect(compilers.compiled).toHaveLength(1); // `tree` only
  });

  test('1e400 in a schema: non_finite_number on that tool (no TypeError), listed without a hash; the other tool is clean', async () => {
    const checked = await checkTools(listed('non_finite'), PROFILE);
    expect(checked.findings).toEqual([
      expect.objectContaining({ class: 'protocol', kind: 'non_finite_number', basis: 'caplab host rule', tool: 'huge_max', evidence: expect.stringContaining('$.properties.n.maximum') }),
    ]);
    expect(checked.tools).toEqual([{ name: 'huge_max' }, expect.objectContaining({ name: 'judge_me', inputSchemaHash: expect.any(String) })]);
  });
});

describe('compiling is bounded: by a schema’s size, and by one budget per listing', () => {
  const tool = (name: string, properties: number) => ({
    name,
    inputSchema: { type: 'object', properties: Object.fromEntries(Array.from({ length: properties }, (_, i) => [`p${i}`, { type: 'string', pattern: `^a${i}` }])) },
  });

  test('a schema larger than probeSchemaBytes: schema_too_large on that tool, never compiled (the audit: 700 KB schemas took 5 s each)', async () => {
    const compilers = new CountingCompilers();
    const big = tool('big', Math.ceil(LIMITS.probeSchemaBytes / 30));
    expect(JSON.stringify(big.inputSchema).length).toBeGreaterThan(LIMITS.probeSchemaBytes);
    const checked = await checkTools([big, tool('small', 3)], PROFILE, { compilers });
    expect(checked.findings).toEqual([expect.objectContaining({ class: 'protocol', kind: 'schema_too_large', basis: 'caplab host rule', tool: 'big' })]);
    expect(compilers.compiled).toHaveLength(1); // `small` only
  });

  test('past probeCompileMs of compiling, the rest of the listing is not compiled; one compile_budget finding counts it', async () => {
    // A clock on which every compile takes 20 s: two compiles spend the budget (30 s), the other three are skipped.
    let t = 0;
    const compilers = new CountingCompilers();
    const now = () => (t += 20_000);
    const checked = await checkTools([1, 2, 3, 4, 5].map((n) => tool(`t${n}`, n)), PROFILE, { compilers, now });
    expect(compilers.compiled).toHaveLength(2);
    expect(checked.tools).toHaveLength(5);
    expect(checked.findings).toEqual([expect.objectContaining({ class: 'timeout', kind: 'compile_budget', basis: 'caplab host rule', message: expect.stringContaining('3 schema(s) after that were not compiled') })]);
  });
});

describe('one Ajv per dialect and strictness, each schema compiled once', () => {
  test('tools sharing a root $id and a nested $id compile as they would alone; $ref "#" names the schema being compiled', async () => {
    const shared = (type: string) => ({ $id: 'https://example.invalid/tool.json', type: 'object', properties: { a: { $ref: 'part.json' } }, $defs: { part: { $id: 'part.json', type } } });
    const tree = { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#' } } } };
    const entries = [
      { name: 'first', inputSchema: shared('string'), outputSchema: tree },
      { name: 'second', inputSchema: shared('number'), outputSchema: tree },
    ];
    const checked = await checkTools(entries, PROFILE, { called: new Set(['second']) });
    expect(checked.findings).toEqual([]);
    // Only a tool probe calls keeps its outputSchema, with how it compiled.
    expect(checked.runtimes.get('first')).toEqual({ hasOutputSchema: true });
    // A called tool keeps its compiled inputSchema too (probe judges its --args before sending them).
    expect(checked.runtimes.get('second')).toEqual({ hasOutputSchema: true, output: { schema: tree, mode: { dialect: '2020-12', strict: true } }, inputValid: expect.any(Function) });
  });

  test('an identical schema is compiled once per listing; its findings name each tool', async () => {
    const compilers = new CountingCompilers();
    const odd = { type: 'object', frobnicate: true };
    const entries = ['a', 'b', 'c'].map((name) => ({ name, inputSchema: { ...odd } }));
    const checked = await checkTools(entries, PROFILE, { compilers });
    expect(kinds(checked.findings)).toEqual(['a: schema_unknown_keyword', 'b: schema_unknown_keyword', 'c: schema_unknown_keyword']);
    expect(compilers.compiled).toHaveLength(2); // the strict pass and the lenient one, for `a` alone
  });
});

describe('a long listing', () => {
  test(`${LIMITS.probeTools} tools are reported in full; one more is one too_many_tools finding that counts the rest`, async () => {
    const full = await runProbe(hostileMemory('tools', LIMITS.probeTools), { timeouts: FAST });
    expect([full.tools.length, full.complete, full.findings, full.failure]).toEqual([LIMITS.probeTools, true, [], undefined]);
    const over = await runProbe(hostileMemory('tools', LIMITS.probeTools + 1), { timeouts: FAST });
    expect(over.tools.length).toBe(LIMITS.probeTools);
    expect(over.findings).toEqual([
      expect.objectContaining({ class: 'protocol', kind: 'too_many_tools', basis: 'caplab host rule', evidence: `${LIMITS.probeTools + 1} listed, 1 not checked` }),
    ]);
  });

  test('checking yields to the event loop: a signal during it stops the check at the next tool', async () => {
    const controller = new AbortController();
    const pages = Math.ceil(LIMITS.probeTools / 2_000);
    let lists = 0;
    // After the last page: from here to the end of the check, only a yield lets this timer run.
    const transport = hostileMemory('tools', LIMITS.probeTools, (method) => {
      if (method === 'tools/list' && ++lists === pages) setTimeout(() => controller.abort('SIGTERM'), 0);
    });
    const run = await runProbe(transport, { timeouts: FAST, signal: controller.signal });
    expect(run.tools.length).toBeGreaterThan(0);
    expect(run.tools.length).toBeLessThan(LIMITS.probeTools);
  });

  test('the judging worker starts only for a call judged against an outputSchema', async () => {
    const judge = new OutputJudge();
    await runProbe(hostileMemory('tools', 3), { timeouts: FAST, judge, calls: [{ name: 'tool_1', arguments: {} }] });
    expect(judge.started).toBe(0);
  });
});
