import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import type { FailureKind } from '../contract/index.ts';
import { createCardContract, readSourceContract } from '../excerpt/contracts.ts';
import { bindPackage, diskReader, parsePackage } from './index.ts';
import { STAGES } from '../excerpt/stages.ts';

const FIXTURES = join(import.meta.dir, '../../fixtures/skills');
const TOOLS = [readSourceContract, createCardContract];

function parseFixture(folder: string) {
  const path = join(FIXTURES, folder);
  return parsePackage(folder, { kind: 'dir', path }, diskReader(path), STAGES);
}

describe('bad packages are refused with a reason that names the field', () => {
  const cases: readonly [folder: string, errorClass: string, kind: FailureKind, field: string][] = [
    ['name-mismatch', 'invalid_arguments', 'bad_package', '`name`: \'other-name\' must equal the folder name'],
    ['bad--name', 'invalid_arguments', 'bad_package', '`name`: lowercase letters, digits and single hyphens'],
    ['unknown-stage', 'invalid_arguments', 'bad_package', "`metadata.caplab-stage-publish`: unknown stage 'publish'"],
    ['unknown-stage-body', 'invalid_arguments', 'bad_package', "`body`: unknown stage 'publish'"],
    ['missing-stage', 'invalid_arguments', 'bad_package', '`metadata.caplab-stage-finish`: required'],
    ['hash-mismatch', 'evidence', 'hash_mismatch', '`metadata.caplab-resources`: references/notes.md: bytes hash to'],
    ['missing-resource', 'invalid_arguments', 'missing_resource', '`metadata.caplab-resources`: references/notes.md: file missing'],
    ['undeclared-stage-resource', 'invalid_arguments', 'bad_package', "`metadata.caplab-stage-read`: 'references/other.md' is not declared"],
    ['bad-yaml', 'invalid_arguments', 'bad_package', '`frontmatter`: invalid YAML'],
    ['caplab-not-string', 'invalid_arguments', 'bad_package', '`metadata.caplab-version`: must be a string'],
  ];
  for (const [folder, errorClass, kind, field] of cases) {
    test(folder, () => {
      const result = parseFixture(folder);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect({ class: result.class, kind: result.kind }).toEqual({ class: errorClass as never, kind });
      expect(result.message).toContain(field);
      expect(result.message).toContain(`fixtures/skills/${folder}`);
    });
  }

  const unbound: readonly [folder: string, kind: FailureKind, text: string][] = [
    ['tool-absent', 'tool_unbound', "delete_card@1.0.0: no tool 'delete_card' is bound"],
    ['tool-version', 'tool_version', "read_source@2.0.0: 'read_source' is bound at 1.0.0"],
  ];
  for (const [folder, kind, text] of unbound) {
    test(`${folder} parses but does not bind`, () => {
      const parsed = parseFixture(folder);
      if (!parsed.ok) throw new Error(parsed.message);
      const bound = bindPackage(parsed.value, TOOLS);
      expect(bound.ok).toBe(false);
      if (bound.ok) return;
      expect(bound.class).toBe('precondition');
      expect(bound.kind).toBe(kind);
      expect(bound.message).toContain('`metadata.caplab-requires`');
      expect(bound.message).toContain(text);
    });
  }
});

test('never refused for a field: no description, a long one and a non-string metadata value of the author\'s are accepted', () => {
  const missing = parseFixture('missing-description');
  expect(missing.ok && [missing.value.description, missing.value.catalog]).toEqual([undefined, 'no_description']);
  const long = parseFixture('long-description');
  expect(long.ok && [long.value.description?.length, long.value.catalog]).toEqual([1025, 'listed']);
  // Agent Skills maps metadata strings to strings; only caplab-* keys are read, so only they must be strings.
  const meta = parseFixture('metadata-not-string');
  expect(meta.ok && meta.value.kind).toBe('staged');
});

test('the control fixture differs from the hash-mismatch one by one byte and is accepted', () => {
  const good = parseFixture('valid-minimal');
  expect(good.ok).toBe(true);
  const a = diskReader(join(FIXTURES, 'valid-minimal'))('references/notes.md') as Uint8Array;
  const b = diskReader(join(FIXTURES, 'hash-mismatch'))('references/notes.md') as Uint8Array;
  expect(a.length).toBe(b.length);
  expect(a.filter((byte, i) => byte !== b[i]).length).toBe(1);
});

test('a resource path escaping the package through a symlink reads as absent', async () => {
  const { mkdirSync, symlinkSync, writeFileSync } = await import('node:fs');
  const base = scratchDir('caplab-skill-');
  writeFileSync(join(base, 'secret.md'), 'outside');
  mkdirSync(join(base, 'pkg/references'), { recursive: true });
  symlinkSync(join(base, 'secret.md'), join(base, 'pkg/references/notes.md'));
  expect(diskReader(join(base, 'pkg'))('references/notes.md')).toBeUndefined();
  expect(diskReader(join(base, 'pkg'))('../secret.md')).toBeUndefined();
});

test('a stage name that is not a word starting with a letter is a programming error, thrown before any file is read', () => {
  let reads = 0;
  const read = () => (reads++, undefined);
  for (const bad of ['1', '01', '', 'two words', '-x']) expect(() => parsePackage('p', { kind: 'embedded' }, read, ['intake', bad])).toThrow(TypeError);
  expect(reads).toBe(0);
  // Integer-like names would reorder the package's stages (object keys): the order must be the task's.
  expect(Object.keys({ b: 1, 2: 1, a: 1 })).toEqual(['2', 'b', 'a']);
});
