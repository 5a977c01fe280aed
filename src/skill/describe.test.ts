import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { createCardContract, readSourceContract } from '../excerpt/contracts.ts';
import { describeSkills, discoverPackages, diskReader, GRANTS_NOTHING, parsePackage, renderSkillsText, type Package } from './index.ts';
import { STAGES } from '../excerpt/stages.ts';
import { LIMITS } from '../contract/index.ts';

function packages(): Package[] {
  const found = discoverPackages({ stages: STAGES });
  if (!found.ok) throw new Error(found.message);
  const folder = join(import.meta.dir, '../../fixtures/skills/tool-version');
  const extra = parsePackage('tool-version', { kind: 'dir', path: folder }, diskReader(folder), STAGES);
  if (!extra.ok) throw new Error(extra.message);
  return [...found.value, extra.value];
}

test('describeSkills reports binding status per package and per required tool', () => {
  const report = describeSkills(packages(), [readSourceContract, createCardContract]);
  const [card, other] = report.packages;
  expect(card!.binding).toEqual({ status: 'bound' });
  expect(card!.requires).toEqual([
    { tool: 'read_source', version: '1.0.0', bound_versions: ['1.0.0'] },
    { tool: 'create_card', version: '1.0.0', bound_versions: ['1.0.0'] },
  ]);
  expect(card!.stages.read).not.toContain('references/card-layout.md');
  expect(other!.binding).toMatchObject({ status: 'refused', class: 'precondition', kind: 'tool_version' });
  expect(report.note).toBe(GRANTS_NOTHING);
  // JSON-safe: survives a round trip unchanged.
  expect(JSON.parse(JSON.stringify(report))).toEqual(report);
});

test('renderSkillsText shows status, reason, requirements, stages and the grants-nothing note', () => {
  const text = renderSkillsText(describeSkills(packages(), [readSourceContract]));
  expect(text).toContain('excerpt-card 1.0.0  [refused (precondition/tool_unbound)]  embedded');
  expect(text).toContain('requires create_card@1.0.0: not bound');
  expect(text).toContain('requires read_source@2.0.0: bound 1.0.0');
  expect(text).toContain('stage read: references/source-conventions.md references/error-handling.md');
  expect(text.trimEnd().endsWith(GRANTS_NOTHING)).toBe(true);
  expect(renderSkillsText(describeSkills([], []))).toStartWith('no method packages\n');
});

test('caplab skills shows a hostile description inert: escapes and bidi overrides written out, no extra line', () => {
  const report = describeSkills(packages(), [readSourceContract, createCardContract]);
  const hostile = { ...report, packages: report.packages.map((p, i) => (i === 0 ? { ...p, description: 'fine\x1b[2J\x1b]0;title\x07\u202eevil\nforged line' } : p)) };
  const text = renderSkillsText(hostile);
  expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f\u202e]/);
  expect(text).toContain('fine\\x1b[2J\\x1b]0;title\\x07\\u202eevil\\x0aforged line');
});

test('caplab skills shows a listed package by its catalog entry, cut at skillCatalogEntryChars code points; an unlisted one has none', () => {
  const [card] = packages();
  const long = { ...card!, description: `${'é'.repeat(2000)}` } as Package;
  const held = { ...card!, catalog: 'held_by_paths', paths: ['docs/**'] } as Package;
  const [shown, cut, hidden] = describeSkills([card!, long, held], [readSourceContract, createCardContract]).packages;
  expect(shown!.catalog_entry).toStartWith('- excerpt-card: Make the excerpt card');
  expect([...cut!.catalog_entry!]).toHaveLength(LIMITS.skillCatalogEntryChars);
  expect(cut!.catalog_entry!.endsWith('é…')).toBe(true);
  expect(hidden!.catalog_entry).toBeNull();
  expect(renderSkillsText(describeSkills([card!], []))).toContain(`  catalog entry: ${shown!.catalog_entry}`);
});
