import { expect, test } from 'bun:test';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { freshDir } from './fresh-dir.ts';

/** A guard that records what it was told, and whether the folder existed when it was registered. */
function recordingGuard() {
  const events: string[] = [];
  return {
    events,
    folder: (path: string) => {
      events.push(`add ${existsSync(path) ? 'existing' : 'absent'}`);
      return () => void events.push('release');
    },
  };
}

test('the folder is registered before it is made, made empty and private, and removed (with its contents) before the guard is told, once', () => {
  const parent = scratchDir('caplab-fresh-parent-');
  const guard = recordingGuard();
  const dir = freshDir('caplab-probe-', { parent, guard });
  expect(dir.path.startsWith(join(parent, 'caplab-probe-'))).toBe(true);
  expect(dir.path.slice(join(parent, 'caplab-probe-').length)).toMatch(/^[0-9a-f]{16}$/);
  expect([readdirSync(dir.path), statSync(dir.path).mode & 0o777]).toEqual([[], 0o700]);
  expect(guard.events).toEqual(['add absent']);
  writeFileSync(join(dir.path, 'left-by-server'), 'x');
  dir.remove();
  dir.remove();
  expect(existsSync(dir.path)).toBe(false);
  expect(guard.events).toEqual(['add absent', 'release']);
});

test('two fresh folders are two; a parent that cannot hold one throws, its registration released', () => {
  const parent = scratchDir('caplab-fresh-parent-');
  const guard = recordingGuard();
  const [a, b] = [freshDir('x-', { parent, guard }), freshDir('x-', { parent, guard })];
  expect(a.path).not.toBe(b.path);
  a.remove();
  b.remove();
  const failing = recordingGuard();
  expect(() => freshDir('x-', { parent: join(parent, 'missing'), guard: failing })).toThrow();
  expect(failing.events).toEqual(['add absent', 'release']);
});
