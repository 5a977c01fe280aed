import { dirname, resolve } from 'node:path';
import * as v from 'valibot';
import { fail, FILE_JSON_BOUNDS, LIMITS, ok, parseJsonBounded, readBoundedText, sha256Hex, type Failure, type Outcome } from '../../contract/index.ts';
import type { HookEvent } from '../hook.ts';
import { DEFAULT_HOOK_TIMEOUT_SEC } from '../hooks/index.ts';
import { parseRule, type PermissionRules, type Rule } from '../permissions/index.ts';
import { describeIssue, SettingsSchema } from './schema.ts';

/**
 * Reads a text file: its text, `undefined` when it does not exist, or a
 * failure saying why it was not read. May throw for other I/O errors.
 */
export type ReadText = (path: string) => Promise<string | undefined | Failure>;

/**
 * Reads a settings file with a stat first and at most `LIMITS.settingsBytes`:
 * a FIFO, device or directory is `precondition/not_regular_file`, a larger
 * file `precondition/too_large`; a missing file is `undefined`.
 */
export const readSettingsFile: ReadText = async function readSettingsFile(path) {
  const read = readBoundedText(path, LIMITS.settingsBytes);
  if (read.ok) return read.value;
  return read.kind === 'not_found' ? undefined : read;
};

/** One command hook from a settings file, with where it runs. */
export interface SettingsHook {
  readonly event: HookEvent;
  readonly matcher: string;
  readonly command: string;
  readonly timeoutSec: number;
  /**
   * The hook's working directory and `CLAUDE_PROJECT_DIR`: the folder of the
   * `--settings` file, or the project root for the project file. A relative
   * command (`sh ./deny-create.sh`) therefore resolves next to the settings
   * file, from any cwd.
   */
  readonly baseDir: string;
  /** The settings file it came from, for the record. */
  readonly source: string;
}

/** A validated settings file. */
export interface LoadedSettings {
  readonly path: string;
  readonly sha256: string;
  readonly baseDir: string;
  readonly hooks: readonly SettingsHook[];
  readonly permissions: PermissionRules;
}

function badSettings(path: string, message: string, issues?: readonly string[]): Failure {
  return fail('invalid_arguments', 'bad_settings', `settings ${path}: ${message}`, issues);
}

function rulesOf(texts: readonly string[]): readonly Rule[] {
  // Already checked by the schema; a failure here is a bug, not bad input.
  return texts.map((text) => {
    const parsed = parseRule(text);
    if (!parsed.ok) throw new Error(`settings rule passed the schema but not parseRule: ${text}`);
    return parsed.value;
  });
}

/**
 * Loads and validates a settings file. A file that breaks the schema is
 * `invalid_arguments` / `bad_settings`; one past a named limit (size, JSON
 * depth, a non-finite number) or not a regular file fails by that kind. Every
 * failure names the file (and the field, where there is one).
 *
 * @param path The file (relative paths resolve against the process cwd).
 * @param readText Injected for tests; a bounded read by default.
 * @param baseDir Where its hooks run; default: the file's folder.
 */
export async function loadSettings(path: string, readText: ReadText = readSettingsFile, baseDir?: string): Promise<Outcome<LoadedSettings>> {
  const absolute = resolve(path);
  let text: string | undefined | Failure;
  try {
    text = await readText(absolute);
  } catch (error) {
    return badSettings(absolute, `cannot read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (text === undefined) return badSettings(absolute, 'file not found');
  if (typeof text !== 'string') return fail(text.class, text.kind, `settings ${text.message}`);
  const json = parseJsonBounded(text, FILE_JSON_BOUNDS);
  if (!json.ok) {
    return json.kind === 'not_json' ? badSettings(absolute, json.message) : fail(json.class, json.kind, `settings ${absolute}: ${json.message}`);
  }
  const parsed = v.safeParse(SettingsSchema, json.value);
  if (!parsed.success) {
    const issues = parsed.issues.map(describeIssue);
    return badSettings(absolute, issues[0] ?? 'invalid', issues);
  }
  const dir = baseDir ?? dirname(absolute);
  const hooks: SettingsHook[] = [];
  for (const event of ['PreToolUse', 'PostToolUse', 'SubagentStart', 'SubagentStop'] as const) {
    for (const group of parsed.output.hooks[event]) {
      for (const hook of group.hooks) {
        hooks.push({
          event,
          matcher: group.matcher ?? '',
          command: hook.command,
          timeoutSec: hook.timeout ?? DEFAULT_HOOK_TIMEOUT_SEC,
          baseDir: dir,
          source: absolute,
        });
      }
    }
  }
  const { allow, ask, deny } = parsed.output.permissions;
  return ok({
    path: absolute,
    sha256: sha256Hex(text),
    baseDir: dir,
    hooks,
    permissions: { allow: rulesOf(allow), ask: rulesOf(ask), deny: rulesOf(deny) },
  });
}
