import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CAPLAB_VERSION } from './version.ts';

test('CAPLAB_VERSION is the version package.json declares', () => {
  const pkg = JSON.parse(readFileSync(join(import.meta.dir, '..', 'package.json'), 'utf8'));
  expect(CAPLAB_VERSION).toBe(pkg.version);
});
