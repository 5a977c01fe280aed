import { expect, test } from 'bun:test';
import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { syncParent, syncsFolders, syncTree, syncTreeConcurrently, type RunDirFs } from './fs.ts';
import { scratchDir } from '../../test/scratch.ts';

/** The real fs, with every path opened for a sync recorded (relative to `root`). */
function recordingFs(root: string): { fs: RunDirFs; opened: string[] } {
  const opened: string[] = [];
  const openSync = ((path: string, flags: string) => {
    opened.push(path === root ? '' : path.slice(root.length + 1));
    return nodeFs.openSync(path, flags);
  }) as RunDirFs['openSync'];
  return { fs: { ...nodeFs, openSync }, opened };
}

test('folders are synced where the OS can (POSIX), skipped on win32; the files themselves always', async () => {
  const root = scratchDir('caplab-fs-');
  nodeFs.mkdirSync(join(root, 'a', 'b'), { recursive: true });
  nodeFs.writeFileSync(join(root, 'a', 'b', 'f.json'), '{}');
  nodeFs.writeFileSync(join(root, 'g.json'), '{}');
  expect([syncsFolders('linux'), syncsFolders('darwin'), syncsFolders('win32'), syncsFolders()]).toEqual([true, true, false, process.platform !== 'win32']);
  const rows: Record<string, string[]> = {};
  for (const os of ['linux', 'win32']) {
    const sync = recordingFs(root);
    syncTree(sync.fs, root, ['a/b/f.json', 'g.json'], os);
    const concurrent = recordingFs(root);
    await syncTreeConcurrently(concurrent.fs, root, ['a/b/f.json', 'g.json'], os);
    const parent = recordingFs(root);
    syncParent(parent.fs, join(root, 'g.json'), os);
    rows[os] = [...sync.opened, '|', ...concurrent.opened, '|', ...parent.opened];
  }
  expect(rows).toEqual({
    linux: ['a/b/f.json', 'g.json', 'a/b', 'a', '', '|', 'a/b/f.json', 'g.json', 'a/b', 'a', '', '|', ''],
    win32: ['a/b/f.json', 'g.json', '|', 'a/b/f.json', 'g.json', '|'],
  });
});
