import { lstatSync } from 'node:fs';
import { resolve } from 'node:path';
import { ok, type Outcome } from '../../contract/index.ts';
import type { PermissionRules } from '../permissions/index.ts';
import { loadSettings, readSettingsFile, type LoadedSettings, type ReadText, type SettingsHook } from './load.ts';

/**
 * The project settings file, relative to the working directory. caplab's own
 * name, not `.claude/settings.json`: a checkout made for Claude Code does not
 * configure caplab by accident (and caplab never reads `.claude/`).
 */
export const PROJECT_SETTINGS = '.caplab/settings.json';

export interface ResolveOptions {
  /**
   * Each `--settings FILE`, relative to `cwd`, in the order given. Always
   * applied, all of them: a later file adds its rules and hooks to the earlier
   * ones (it never replaces them), so a deny rule in any file still wins. A
   * file named twice is applied once.
   */
  readonly settingsPaths?: readonly string[];
  /** `--trust` (alias `--trust-project`): apply `<cwd>/.caplab/settings.json` if present. */
  readonly trustProject: boolean;
  readonly cwd: string;
  readonly readText?: ReadText;
}

/** The settings in effect, merged, with where each part came from. */
export interface EffectiveSettings {
  /** In merge order: the trusted project file, then each `--settings` file. */
  readonly sources: readonly LoadedSettings[];
  /** Every command hook, in merge order. */
  readonly hooks: readonly SettingsHook[];
  /** Rule lists concatenated; precedence (deny > ask > allow) does not depend on source. */
  readonly permissions: PermissionRules;
  /** E.g. an untrusted project file that was found and ignored. Show these to the user. */
  readonly notices: readonly string[];
}

export const NO_SETTINGS: EffectiveSettings = { sources: [], hooks: [], permissions: { allow: [], ask: [], deny: [] }, notices: [] };

function merge(sources: readonly LoadedSettings[], notices: readonly string[]): EffectiveSettings {
  return {
    sources,
    hooks: sources.flatMap((s) => s.hooks),
    permissions: {
      allow: sources.flatMap((s) => s.permissions.allow),
      ask: sources.flatMap((s) => s.permissions.ask),
      deny: sources.flatMap((s) => s.permissions.deny),
    },
    notices,
  };
}

/**
 * Whether anything is at `path`: a file, a FIFO, a directory, a dangling
 * symlink. Only an lstat: an untrusted file is never opened or read, so
 * the notice costs nothing whatever is there.
 */
function lstatPresent(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    // Only "nothing there" is absent; anything else still gets the notice.
    const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}

/**
 * Resolves the settings in effect. A project file found in the working
 * directory is applied only when named with `--settings` or trusted with
 * `--trust-project`: a repository must not run commands just by being
 * cloned. Otherwise it is ignored with a notice.
 *
 * Hooks from `--settings FILE` run in FILE's folder; hooks from the trusted
 * project file run in the project root (`cwd`), like Claude Code's
 * `$CLAUDE_PROJECT_DIR`.
 */
export async function resolveSettings(options: ResolveOptions): Promise<Outcome<EffectiveSettings>> {
  const readText = options.readText ?? readSettingsFile;
  const projectPath = resolve(options.cwd, PROJECT_SETTINGS);
  const explicitPaths = [...new Set((options.settingsPaths ?? []).map((path) => resolve(options.cwd, path)))];
  const sources: LoadedSettings[] = [];
  const notices: string[] = [];
  if (!explicitPaths.includes(projectPath)) {
    const present = lstatPresent(projectPath);
    if (present && options.trustProject) {
      const project = await loadSettings(projectPath, readText, resolve(options.cwd));
      if (!project.ok) return project;
      sources.push(project.value);
    } else if (present) {
      notices.push(
        `ignored untrusted project settings ${projectPath} (hooks and rules in it were not applied; ` +
          `pass --trust or --settings ${PROJECT_SETTINGS} to apply them)`,
      );
    } else if (options.trustProject) {
      notices.push(`--trust: no project settings at ${projectPath}`);
    }
  }
  for (const path of explicitPaths) {
    const named = await loadSettings(path, readText);
    if (!named.ok) return named;
    sources.push(named.value);
  }
  return ok(merge(sources, notices));
}
