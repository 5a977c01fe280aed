import { expect, test } from 'bun:test';
import { builtinScenarioNames, openProviders, type TaskRun } from '../harness/index.ts';
import { textBlock } from '../pipeline/index.ts';
import { bindPackage, discoverPackages } from '../skill/index.ts';
import { fixtureSnapshot } from './sources.ts';
import { takeSnapshot } from './snapshot.ts';
import { EXCERPT_SCENARIOS, excerptTask, excerptTaskOverMcp } from './task.ts';

const task = excerptTask;
const offers = (of = task) => of.tools({ runId: 'offers' }).flatMap((provider) => provider.offers);

test('each local tool opens as it is offered: the same name, contract and implementation, read_source first', async () => {
  const opened = await openProviders(task.tools({ runId: 'run-1' }), { runId: 'run-1' });
  if (!opened.ok) throw new Error(opened.message);
  expect(opened.value.tools.map((made) => ({ tool: made.binding.tool, contract: made.contract, implementation: made.binding.implementation }))).toEqual(
    offers().map((offer) => ({ tool: offer.binding.tool, contract: offer.contract, implementation: offer.implementation })),
  );
  expect(offers().map((o) => o.binding.tool)).toEqual(['read_source', 'create_card']);
});

test('over MCP only read_source is served, by the fixture server, in its local place; the grant names a tool of the task', () => {
  // Offers are known before anything starts: the launch is never spawned.
  const served = offers(excerptTaskOverMcp({ envSource: {}, launch: { command: ['/nonexistent/caplab-server'], cwd: '/', env: {} } }));
  expect(served.map((o) => [o.binding.tool, o.binding.server?.key ?? null, o.implementation.kind])).toEqual([
    ['read_source', 'caplab-fixture', 'mcp'],
    ['create_card', null, 'local'],
  ]);
  expect(served.map((o) => o.contract)).toEqual(offers().map((o) => o.contract));
  expect(task.grant).toEqual(['create_card']);
  expect(task.grant!.every((name) => offers().some((o) => o.binding.tool === name))).toBe(true);
});

test('the run starts from its snapshot: each source a file of its own, run_start listing them; each run reads its own', () => {
  const run: TaskRun = { runId: 'r' };
  const started = task.start!(run);
  const snapshot = fixtureSnapshot();
  expect(started.files.map((f) => [f.path, f.role, f.bytes])).toEqual(snapshot.sources.map((s) => [`snapshot/${s.id}.md`, 'snapshot_source', s.bytes]));
  expect(started.fields).toEqual({ snapshot: { id: snapshot.id, sources: snapshot.sources.map((s) => ({ id: s.id, sha256: s.sha256, bytes: s.byteLength })) } });
  // The snapshot engine rebuilds the startup snapshot from its own bytes (what verify does); an edit changes its id.
  expect(takeSnapshot(started.files.map((f, i) => ({ id: snapshot.sources[i]!.id, bytes: f.bytes })))).toEqual(snapshot);
  const edited = snapshot.sources.map((s, i) => ({ id: s.id, bytes: i === 0 ? new TextEncoder().encode(`${s.text}!`) : s.bytes }));
  expect(takeSnapshot(edited).id).not.toBe(snapshot.id);
});

test('what a request disclosed is kept per run: the same request id in another run discloses nothing there', () => {
  const [alpha] = fixtureSnapshot().sources;
  const payload = new TextEncoder().encode(JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: alpha!.text }] }] }));
  const content = [textBlock(alpha!.text)];
  const read = { toolCallId: 't1', actionId: 'act-01', name: 'read_source', arguments: { original: { source_id: 'alpha' } }, stages: [], hooks: [], handlerEntered: true, outcome: { ok: true, value: { data: {}, content, evidence: 'bytes observed now' } }, modelContent: content } as const;
  const one: TaskRun = { runId: 'one' };
  const other: TaskRun = { runId: 'other' };
  expect(task.requestFields!({ id: 'req-02', payload, calls: [read] }, one)).toEqual({ disclosed_sources: ['alpha'] });
  expect(task.requestFields!({ id: 'req-02', payload, calls: [] }, other)).toEqual({ disclosed_sources: [] });
  expect(task.requestFields!({ id: 'req-03', payload, calls: [read] }, one)).toEqual({ disclosed_sources: ['alpha'] });
});

test('the scenarios the task names are built in, and its method package binds to its tools at its stages', () => {
  const names = builtinScenarioNames(EXCERPT_SCENARIOS.folder);
  expect(names).toContain(EXCERPT_SCENARIOS.demo);
  for (const name of EXCERPT_SCENARIOS.overMcp) expect(names).toContain(name);
  const method = task.method!;
  const packages = discoverPackages({ stages: method.stages });
  if (!packages.ok) throw new Error(packages.message);
  const pkg = packages.value.find((p) => p.name === method.skill);
  expect(pkg?.name).toBe('excerpt-card');
  const bound = bindPackage(pkg!, offers().map(({ contract }) => ({ name: contract.name, version: contract.version })));
  expect(bound.ok).toBe(true);
  expect(pkg?.kind === 'staged' && Object.keys(pkg.stages)).toEqual([...method.stages]);
});
