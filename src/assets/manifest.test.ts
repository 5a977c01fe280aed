import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderManifest } from '../../scripts/embed.ts';
import { assetBytes, assetPaths } from './index.ts';

test('the generated manifest is fresh (run `bun scripts/embed.ts` if this fails)', () => {
  const onDisk = readFileSync(join(import.meta.dir, 'manifest.gen.ts'), 'utf8');
  expect(onDisk).toBe(renderManifest());
});

test('embedded bytes equal the files on disk, byte for byte', () => {
  const paths = assetPaths('fixtures/sources');
  expect(paths.length).toBeGreaterThanOrEqual(2);
  for (const path of paths) {
    const disk = new Uint8Array(readFileSync(join(import.meta.dir, '../..', path)));
    expect(assetBytes(path)).toEqual(disk);
  }
});
