import { expect, test } from 'bun:test';
import { builtinScenarioNames } from '../harness/index.ts';
import { bindPackage, discoverPackages } from '../skill/index.ts';
import { excerptTask } from './task.ts';

const task = excerptTask;

test('each local tool is made as its entry says: the same contract and implementation', () => {
  const snapshot = task.snapshot();
  for (const tool of task.tools.local) {
    const made = tool.make(snapshot, 'run-1');
    expect({ name: made.binding.tool, contract: made.contract, implementation: made.binding.implementation }).toEqual({
      name: tool.entry.contract.name,
      contract: tool.entry.contract,
      implementation: tool.entry.implementation,
    });
  }
  expect(task.tools.local.map((t) => t.entry.contract.name)).toEqual(['read_source', 'create_card']);
});

test('only read_source is served over MCP, under a local namesake; the grant names a tool of the task', () => {
  const names = task.tools.local.map((t) => t.entry.contract.name);
  expect(task.tools.mcp.expected.map((e) => e.contract.name)).toEqual(['read_source']);
  expect(task.tools.mcp.expected.every((e) => names.includes(e.contract.name))).toBe(true);
  expect(task.tools.grant).toEqual(['create_card']);
  expect(task.tools.grant.every((name) => names.includes(name))).toBe(true);
});

test('the snapshot engine rebuilds the startup snapshot from its own bytes (what verify does)', () => {
  const snapshot = task.snapshot();
  const rebuilt = task.snapshotOf(snapshot.sources.map((s) => ({ id: s.id, bytes: s.bytes })));
  expect(rebuilt).toEqual(snapshot);
  const edited = snapshot.sources.map((s, i) => ({ id: s.id, bytes: i === 0 ? new TextEncoder().encode(`${s.text}!`) : s.bytes }));
  expect(task.snapshotOf(edited).id).not.toBe(snapshot.id);
});

test('the scenarios the task names are built in, and its method package binds to its tools at its stages', () => {
  const names = builtinScenarioNames(task.scenarios.folder);
  expect(names).toContain(task.scenarios.demo);
  for (const name of task.scenarios.overMcp) expect(names).toContain(name);
  const packages = discoverPackages({ stages: task.method.stages });
  if (!packages.ok) throw new Error(packages.message);
  const pkg = packages.value.find((p) => p.name === task.method.skill);
  expect(pkg?.name).toBe('excerpt-card');
  const bound = bindPackage(pkg!, task.tools.local.map(({ entry: { contract } }) => ({ name: contract.name, version: contract.version })));
  expect(bound.ok).toBe(true);
  expect(pkg?.kind === 'staged' && Object.keys(pkg.stages)).toEqual([...task.method.stages]);
});
