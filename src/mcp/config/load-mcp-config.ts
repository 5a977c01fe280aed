import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fail, FILE_JSON_BOUNDS, LIMITS, ok, parseJsonBounded, readBoundedText, type Outcome } from '../../contract/index.ts';
import { memberKeys } from '../wire/index.ts';
import { readEntry, type McpConfigEntry } from './mcp-entry.ts';

/** The project file read only with trust (like ./.caplab/settings.json for run). */
export const PROJECT_MCP_CONFIG = '.mcp.json';

/** A Claude Code `.mcp.json`: where it was read, and every `mcpServers` entry in the order the file writes them. */
export interface McpConfig {
  readonly path: string;
  readonly entries: readonly McpConfigEntry[];
}

export interface McpConfigOptions {
  /** The file as the user named it, relative to `cwd`; undefined means the project file in `cwd`. */
  readonly file?: string;
  /** Whether the project's own `.mcp.json` may be used: it can start any program. */
  readonly trust: boolean;
  readonly cwd: string;
  /** Where `${VAR}` is looked up. */
  readonly source: Readonly<Record<string, string | undefined>>;
}

/**
 * Whether two paths name one file: the same device and inode, so a symlink or
 * a hard link to the project file is the project file. A path that cannot be
 * read is compared as a path.
 */
function sameFile(a: string, b: string): boolean {
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return resolve(a) === resolve(b);
  }
}

/**
 * Loads a Claude Code `.mcp.json` (`{ "mcpServers": { name: { type?, command,
 * args, env, url, headers } } }`), bounded like every JSON file caplab reads
 * (`LIMITS.settingsBytes`, `LIMITS.fileJsonDepth`). The project file — found,
 * or named and resolving to it — is used only with `trust`; any other named
 * file is used as named. Every entry comes back, in file order: stdio ones
 * and HTTP ones parsed and expanded, other types (`sse`, `ws`, …) kept as unsupported, a malformed one as
 * invalid with its failure — so one bad entry never hides the others.
 *
 * @example
 * const config = loadMcpConfig({ trust: true, cwd: process.cwd(), source: process.env });
 * if (config.ok) for (const entry of config.value.entries) console.log(entry.name, entry.kind);
 */
export function loadMcpConfig(options: McpConfigOptions): Outcome<McpConfig> {
  const project = resolve(options.cwd, PROJECT_MCP_CONFIG);
  const path = options.file === undefined ? project : resolve(options.cwd, options.file);
  if (!options.trust && sameFile(path, project)) {
    return fail('permission_denied', 'untrusted_project', `${path} is the project's own .mcp.json; it can start any program, so it is used only with --trust (caplab host rule)`);
  }
  const text = readBoundedText(path, LIMITS.settingsBytes);
  if (!text.ok) return text;
  const json = parseJsonBounded(text.value, FILE_JSON_BOUNDS);
  if (!json.ok) return fail(json.class, json.kind === 'not_json' ? 'malformed_config' : json.kind, `${path}: ${json.message}`);
  const servers = (json.value as { mcpServers?: unknown } | null)?.mcpServers;
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) return fail('invalid_arguments', 'malformed_config', `${path}: no "mcpServers" object`);
  const byName = servers as Record<string, unknown>;
  // JSON.parse lists index-like names ("1", "2") first; the text's order is the file's.
  const written = memberKeys(text.value, 'mcpServers');
  const names = written.length === Object.keys(byName).length && written.every((name) => Object.hasOwn(byName, name)) ? written : Object.keys(byName);
  return ok({ path, entries: names.map((name) => readEntry(path, name, byName[name], options.source)) });
}
