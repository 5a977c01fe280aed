import { expect, test } from 'bun:test';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../test/scratch.ts';
import { entryArgv, resolveCommand, resolvePaths } from './entry-launch.ts';
import { loadMcpConfig } from './load-mcp-config.ts';

test('resolveCommand: a bare name on the server\'s PATH, not caplab\'s; a path or an unknown name left as it is', () => {
  const bin = scratchDir('caplab-entry-bin-');
  writeFileSync(join(bin, 'my-server'), '#!/bin/sh\n');
  chmodSync(join(bin, 'my-server'), 0o755);
  expect(resolveCommand(['my-server', 'a'], { PATH: bin })).toEqual([join(bin, 'my-server'), 'a']);
  expect(resolveCommand(['my-server'], { PATH: '/nonexistent' })).toEqual(['my-server']);
  expect(resolveCommand(['my-server'], {})).toEqual(['my-server']);
  expect(resolveCommand(['./my-server'], { PATH: bin })).toEqual(['./my-server']);
  expect(() => resolveCommand([], {})).toThrow('empty command');
});

test('resolvePaths: a command with / always, arguments naming an existing path; options, ${VAR}, absolute and bare left alone', () => {
  const exists = (p: string) => p === '/c/server.js' || p === '/c/data';
  expect(resolvePaths(['node', 'server.js', '--flag', 'missing.js', '${X}/a', 'data', '/abs', ''], '/c', exists)).toEqual(['node', '/c/server.js', '--flag', 'missing.js', '${X}/a', '/c/data', '/abs', '']);
  expect(resolvePaths(['./bin/srv', 'x'], '/c', exists)).toEqual(['/c/bin/srv', 'x']);
  expect(resolvePaths(['bin/srv'], '/c', () => false)).toEqual(['/c/bin/srv']);
  expect(resolvePaths(['../up/srv'], '/c/d', () => false)).toEqual(['/c/up/srv']);
});

test('a config entry\'s relative paths resolve against the config file\'s folder, not the caller\'s cwd; the argv is absolute', () => {
  const root = scratchDir('caplab-entry-launch-');
  mkdirSync(join(root, 'project/bin'), { recursive: true });
  mkdirSync(join(root, 'caller'));
  writeFileSync(join(root, 'project/bin/srv'), '#!/bin/sh\n');
  writeFileSync(join(root, 'project/server.js'), '');
  // The same names under the caller's cwd: they must not be chosen.
  writeFileSync(join(root, 'caller/server.js'), '');
  const servers = { mcpServers: { rel: { command: './bin/srv', args: ['server.js', 'absent.js'] }, bare: { command: 'sh', args: ['server.js'] } } };
  writeFileSync(join(root, 'project/servers.json'), JSON.stringify(servers));
  const loaded = loadMcpConfig({ file: '../project/servers.json', cwd: join(root, 'caller'), trust: false, source: {} });
  if (!loaded.ok) throw new Error(loaded.message);
  const [rel, bare] = loaded.value.entries;
  if (rel?.kind !== 'stdio' || bare?.kind !== 'stdio') throw new Error('expected two stdio entries');
  expect(entryArgv(rel, { PATH: '/usr/bin:/bin' })).toEqual([join(root, 'project/bin/srv'), join(root, 'project/server.js'), 'absent.js']);
  const sh = Bun.which('sh', { PATH: '/usr/bin:/bin' }) ?? 'sh';
  expect(entryArgv(bare, { PATH: '/usr/bin:/bin' })).toEqual([sh, join(root, 'project/server.js')]);
});
