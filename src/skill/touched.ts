import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * The top-level arguments whose values a call touches, as Claude Code's file
 * tools name them (`file_path`, `notebook_path`) and as a plain tool most
 * often does (`path`, `paths`).
 */
export const TOUCH_ARGUMENTS = ['file_path', 'notebook_path', 'path', 'paths'] as const;

/** One path a call touched: the argument it came from, the value as given, and that value relative to the run's cwd (`/`-separated). */
export interface Touch {
  readonly argument: (typeof TOUCH_ARGUMENTS)[number];
  readonly value: string;
  /** Undefined when the value resolves to cwd itself or outside it: such a path matches nothing. */
  readonly relative: string | undefined;
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A path value relative to `cwd`, `/`-separated, lexically (no symlink is
 * followed: the run's cwd is the one root paths are matched under);
 * undefined when it resolves to `cwd` itself or outside it.
 */
export function relativeToCwd(cwd: string, value: string): string | undefined {
  const rel = relative(resolve(cwd), resolve(cwd, value));
  if (rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`)) return undefined;
  return rel.split(sep).join('/');
}

/**
 * The paths a call's arguments touch: each string value of a top-level
 * `file_path`, `notebook_path`, `path` or `paths` (a string, or an array whose
 * string items count), in that order; any other argument, a nested one or a
 * value of another type touches nothing.
 */
export function touchedPaths(args: unknown, cwd: string): readonly Touch[] {
  if (!isObject(args)) return [];
  return TOUCH_ARGUMENTS.flatMap((argument) => {
    const given = args[argument];
    const values = typeof given === 'string' ? [given] : Array.isArray(given) ? given.filter((item): item is string => typeof item === 'string') : [];
    return values.map((value) => ({ argument, value, relative: relativeToCwd(cwd, value) }));
  });
}

/** The first of `globs` (`Bun.Glob`) a cwd-relative path matches; undefined when none does. */
export function matchingGlob(globs: readonly string[], rel: string): string | undefined {
  return globs.find((glob) => new Bun.Glob(glob).match(rel));
}

/**
 * The folders a nested `.claude/skills/` is looked for in on a touch of
 * `rel` (cwd-relative): the path's own folder, then each folder above it,
 * up to but not including cwd — nearest first.
 */
export function nestedFolders(rel: string): readonly string[] {
  const folders: string[] = [];
  for (let folder = dirname(rel); folder !== '.' && folder !== '' && folder !== '/'; folder = dirname(folder)) folders.push(folder);
  return folders;
}
