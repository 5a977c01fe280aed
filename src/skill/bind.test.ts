import { expect, test } from 'bun:test';
import { createCardContract, readSourceContract } from '../excerpt/contracts.ts';
import { bindPackage, discoverPackages, load } from './index.ts';
import { STAGES } from '../excerpt/stages.ts';

test('bindPackage reports every unbound requirement, the first deciding the kind', () => {
  const found = discoverPackages({ stages: STAGES });
  if (!found.ok) throw new Error(found.message);
  const result = bindPackage(found.value[0]!, [{ name: 'read_source', version: '1.1.0' }]);
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect([result.class, result.kind]).toEqual(['precondition', 'tool_version']);
  expect(result.issues).toHaveLength(2);
  expect(result.issues![1]).toContain("no tool 'create_card' is bound");
});

test('load returns the declared resources of the stage, in order, with verified hashes', () => {
  const found = discoverPackages({ stages: STAGES });
  if (!found.ok) throw new Error(found.message);
  const pkg = found.value[0]!;
  if (pkg.kind !== 'staged') throw new Error('the embedded package is staged');
  const bound = bindPackage(pkg, [readSourceContract, createCardContract]);
  if (!bound.ok) throw new Error(bound.message);
  for (const stage of STAGES) {
    const loaded = load(bound.value, stage);
    expect(loaded.resources.map((r) => r.path)).toEqual([...bound.value.package.stages[stage]!.resources]);
    for (const r of loaded.resources) expect(new Bun.CryptoHasher('sha256').update(r.text).digest('hex')).toBe(r.sha256);
    expect(loaded.instructionsSha256).toBe(new Bun.CryptoHasher('sha256').update(loaded.instructions).digest('hex'));
  }
});

test('asking for a stage the task does not have is a programmer error, not an empty load', () => {
  const found = discoverPackages({ stages: STAGES });
  if (!found.ok) throw new Error(found.message);
  const pkg = found.value[0]!;
  if (pkg.kind !== 'staged') throw new Error('the embedded package is staged');
  const bound = bindPackage(pkg, [readSourceContract, createCardContract]);
  if (!bound.ok) throw new Error(bound.message);
  expect(() => load(bound.value, 'publish')).toThrow("has no stage 'publish' (stages: read, create, finish)");
});
