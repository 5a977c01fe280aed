import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { StdioConfigEntry } from './mcp-entry.ts';

/**
 * Resolves argv[0] through the server's PATH (`env.PATH`, not caplab's), so
 * the launch is absolute; a command holding a `/` is left as it is (resolve
 * it first with `resolvePaths`). A name not found there is left bare: the
 * spawn then fails naming it ("Executable not found in $PATH"), never
 * finding it through caplab's own PATH.
 *
 * @example resolveCommand(['node', 'server.js'], { PATH: '/usr/bin' }) // ['/usr/bin/node', 'server.js']
 */
export function resolveCommand(command: readonly string[], env: Readonly<Record<string, string>>): string[] {
  const [program, ...args] = command;
  if (!program) throw new Error('resolveCommand: empty command');
  const resolved = program.includes('/') ? program : Bun.which(program, { PATH: env['PATH'] ?? '' });
  return [resolved ?? program, ...args];
}

/**
 * The relative paths of a command made absolute against `base`, since the
 * server starts in a fresh empty cwd where they name nothing: a command
 * holding a `/` always (it is a path, not a name for PATH), and each
 * argument that names an existing path under `base`. Left alone: absolute
 * paths, options (`-…`), empty arguments, text still holding `${`, and a bare
 * command (found on the server's PATH by `resolveCommand`).
 *
 * @example resolvePaths(['./bin/srv', 'server.js', '--flag', 'missing.js'], '/proj') // ['/proj/bin/srv', '/proj/server.js', '--flag', 'missing.js'] (if /proj/server.js exists)
 */
export function resolvePaths(command: readonly string[], base: string, exists: (path: string) => boolean = existsSync): string[] {
  return command.map((arg, index) => {
    if (arg === '' || isAbsolute(arg) || arg.startsWith('-') || arg.includes('${')) return arg;
    if (index === 0) return arg.includes('/') ? resolve(base, arg) : arg;
    const path = resolve(base, arg);
    return exists(path) ? path : arg;
  });
}

/**
 * The launch argv of a config file's stdio entry (caplab's one relative-path
 * rule): its relative paths resolved against the config file's folder
 * (`entry.folder`), never the caller's cwd, so an entry means the same from
 * wherever caplab runs; a bare command found on the server's PATH (`env`,
 * the environment the server is started with: `probeEnv(source, [],
 * entry.env)` as probe builds it).
 *
 * @example entryArgv({ command: ['node', 'server.js'], folder: '/proj' }, { PATH: '/usr/bin' }) // ['/usr/bin/node', '/proj/server.js']
 */
export function entryArgv(entry: Pick<StdioConfigEntry, 'command' | 'folder'>, env: Readonly<Record<string, string>>, exists: (path: string) => boolean = existsSync): string[] {
  return resolveCommand(resolvePaths(entry.command, entry.folder, exists), env);
}
