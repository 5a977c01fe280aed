import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assetBytes, assetPaths } from '../assets/index.ts';
import { bindPackage, catalog, discoverPackages, load, parsePackage, type BoundPackage, type PackageReader } from '../skill/index.ts';
import { createCardContract, QUOTE_MAX, QUOTE_MIN, readSourceContract } from './contracts.ts';
import { SOURCE_IDS } from './sources.ts';
import { STAGES } from './stages.ts';

const PREFIX = 'skills/excerpt-card';
const embeddedReader = (rel: string): Uint8Array | undefined => assetBytes(`${PREFIX}/${rel}`);

function bound(): BoundPackage {
  const found = discoverPackages({ stages: STAGES });
  if (!found.ok) throw new Error(found.message);
  const pkg = found.value.find((p) => p.name === 'excerpt-card');
  if (pkg?.kind !== 'staged') throw new Error('excerpt-card not embedded as a staged package');
  const result = bindPackage(pkg, [readSourceContract, createCardContract]);
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

test('the embedded package is byte-identical to skills/excerpt-card on disk', () => {
  const paths = assetPaths(PREFIX);
  expect(paths).toContain(`${PREFIX}/SKILL.md`);
  for (const path of paths) {
    expect(assetBytes(path)).toEqual(new Uint8Array(readFileSync(join(import.meta.dir, '../..', path))));
  }
});

test('excerpt-card binds to the shipped contracts at their versions', () => {
  const b = bound();
  expect(b.tools).toEqual([
    { tool: 'read_source', version: readSourceContract.version },
    { tool: 'create_card', version: createCardContract.version },
  ]);
  // allowed-tools names only tools the package requires (and so binds).
  expect(b.package.allowedTools.every((t) => b.package.requires.some((r) => r.tool === t))).toBe(true);
});

test("load('read') carries no create-stage reference; each stage carries only its own section", () => {
  const b = bound();
  const read = load(b, 'read');
  const create = load(b, 'create');
  expect(read.resources.map((r) => r.path)).not.toContain('references/card-layout.md');
  expect(create.resources.map((r) => r.path)).toContain('references/card-layout.md');
  const cardLayout = b.package.resources.find((r) => r.path === 'references/card-layout.md')!;
  expect(read.instructions).not.toContain(cardLayout.text);
  for (const stage of STAGES) {
    const text = load(b, stage).instructions;
    for (const other of STAGES) expect(text.includes(`## Stage: ${other}`)).toBe(other === stage);
  }
});

test('one edited byte in any resource refuses the package (hash_mismatch)', () => {
  for (const resource of bound().package.resources) {
    const edited: PackageReader = (rel) => {
      const bytes = embeddedReader(rel);
      if (rel !== resource.path || !bytes) return bytes;
      const copy = new Uint8Array(bytes);
      copy[copy.length - 2]! ^= 0x01;
      return copy;
    };
    const result = parsePackage('excerpt-card', { kind: 'embedded' }, edited, STAGES);
    expect(result.ok).toBe(false);
    if (result.ok) continue;
    expect(result.class).toBe('evidence');
    expect(result.kind).toBe('hash_mismatch');
    expect(result.message).toContain(resource.path);
  }
});

test('the package hash changes when SKILL.md changes by one byte', () => {
  const original = parsePackage('excerpt-card', { kind: 'embedded' }, embeddedReader, STAGES);
  const text = new TextDecoder().decode(embeddedReader('SKILL.md')!);
  const edited = new TextEncoder().encode(text.replace('Nothing else.', 'Nothing else!'));
  const changed = parsePackage('excerpt-card', { kind: 'embedded' }, (rel) => (rel === 'SKILL.md' ? edited : embeddedReader(rel)), STAGES);
  if (!original.ok || !changed.ok || original.value.kind !== 'staged' || changed.value.kind !== 'staged') throw new Error('both parse, staged');
  expect(changed.value.hash).not.toBe(original.value.hash);
  expect(changed.value.resources).toEqual(original.value.resources);
});

test('the method text agrees with the contracts it explains', () => {
  const conventions = bound().package.resources.find((r) => r.path === 'references/source-conventions.md')!.text;
  expect(conventions).toContain(`${QUOTE_MIN}–${QUOTE_MAX} Unicode code points`);
  expect(conventions).toContain(`The fixed order is ${SOURCE_IDS.map((id) => `\`${id}\``).join(', then ')}.`);
  expect(conventions).toContain(`read_source@${readSourceContract.version}`);
  expect(conventions).toContain(`create_card@${createCardContract.version}`);
});

test('the catalog shows name and description only', () => {
  const [entry] = catalog([bound().package]);
  expect(Object.keys(entry!).sort()).toEqual(['description', 'name']);
  expect(entry!.name).toBe('excerpt-card');
  expect(entry!.description.length).toBeLessThanOrEqual(1024);
});
