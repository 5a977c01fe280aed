import { expect, test } from 'bun:test';
import { matchingGlob, nestedFolders, relativeToCwd, touchedPaths } from './touched.ts';

const CWD = '/work/project';

test('a call touches the string values of file_path, notebook_path, path and paths (a string or an array), resolved against cwd', () => {
  const touched = touchedPaths({ file_path: 'src/a.ts', notebook_path: '/work/project/n.ipynb', path: './docs/x.md', paths: ['a/b.md', 3, 'c.md'], other: 'no.md' }, CWD);
  expect(touched.map((t) => [t.argument, t.relative])).toEqual([
    ['file_path', 'src/a.ts'],
    ['notebook_path', 'n.ipynb'],
    ['path', 'docs/x.md'],
    ['paths', 'a/b.md'],
    ['paths', 'c.md'],
  ]);
});

test('a nested argument, a non-string value or arguments that are not an object touch nothing', () => {
  expect(touchedPaths({ options: { path: 'docs/a.md' }, path: 7 }, CWD)).toEqual([]);
  expect(touchedPaths(['docs/a.md'], CWD)).toEqual([]);
  expect(touchedPaths(null, CWD)).toEqual([]);
});

test('a path outside cwd, or cwd itself, has no relative path: it matches nothing', () => {
  expect(relativeToCwd(CWD, '../other/docs/a.md')).toBeUndefined();
  expect(relativeToCwd(CWD, '/etc/passwd')).toBeUndefined();
  expect(relativeToCwd(CWD, '/work/project-two/docs/a.md')).toBeUndefined();
  expect(relativeToCwd(CWD, '.')).toBeUndefined();
  expect(relativeToCwd(CWD, 'docs/../../project/docs/a.md')).toBe('docs/a.md');
});

test('globs are matched with Bun.Glob against the cwd-relative path', () => {
  expect(matchingGlob(['docs/**/*.md'], 'docs/a/b.md')).toBe('docs/**/*.md');
  expect(matchingGlob(['src/*.ts', 'docs/**/*.md'], 'docs/b.md')).toBe('docs/**/*.md');
  expect(matchingGlob(['docs/**/*.md'], 'src/docs/a.md')).toBeUndefined();
  expect(matchingGlob(['docs/**/*.md'], 'docs/a/b.txt')).toBeUndefined();
  expect(matchingGlob(['{src,lib}/**/*.ts'], 'lib/x/y.ts')).toBe('{src,lib}/**/*.ts');
});

test('nested folders run from the path\'s folder up to, not including, cwd', () => {
  expect(nestedFolders('docs/a/b.md')).toEqual(['docs/a', 'docs']);
  expect(nestedFolders('top.md')).toEqual([]);
});
