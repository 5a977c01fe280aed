import { expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

function project(): string {
  const cwd = scratchDir('caplab-agents-command-');
  mkdirSync(join(cwd, 'types'));
  writeFileSync(join(cwd, 'types/reader.md'), '---\nname: reader\ndescription: reads\ntools: read_source\ncolor: blue\n---\nRead.\n');
  writeFileSync(join(cwd, 'types/shell.md'), '---\nname: shell\ndescription: runs\ntools: read_source, Bash\n---\nRun.\n');
  writeFileSync(join(cwd, 'types/broken.md'), 'no frontmatter\n');
  mkdirSync(join(cwd, '.claude/agents'), { recursive: true });
  writeFileSync(join(cwd, '.claude/agents/local.md'), '---\nname: local\ndescription: the project\'s\n---\nHi.\n');
  return cwd;
}

test('caplab agents --json: types, sources, resolved tools, fields not applied, refusals, unreadable files; the project only with --trust', async () => {
  const cwd = project();
  const io = testIo(cwd);
  expect(await cli(['agents', '--agents-dir', 'types', '--json'], io)).toBe(0);
  const report = JSON.parse(io.out());
  expect(report.types.map((t: { name: string; tools: string[]; refused: string | null }) => [t.name, t.tools, t.refused?.split(':')[0] ?? null])).toEqual([
    ['general-purpose', ['read_source', 'create_card'], null],
    ['reader', ['read_source'], null],
    ['shell', ['read_source', 'Bash'], 'precondition/subagent_tools_wider'],
  ]);
  expect(report.types[1].not_applied).toEqual(['color']);
  expect(report.unreadable.map((r: { name: string }) => r.name)).toEqual(['broken']);
  expect(io.err()).toContain('ignored untrusted project subagents');
  const trusted = testIo(cwd);
  expect(await cli(['agents', '--trust', '--json'], trusted)).toBe(0);
  expect(JSON.parse(trusted.out()).types.map((t: { name: string; source: string }) => `${t.name}:${t.source}`)).toEqual(['general-purpose:host', 'local:project']);
});

test('caplab agents: two files of one type, or an empty --agents-dir, are usage errors', async () => {
  const cwd = project();
  writeFileSync(join(cwd, 'types/again.md'), '---\nname: reader\ndescription: again\n---\nx\n');
  const io = testIo(cwd);
  expect(await cli(['agents', '--agents-dir', 'types'], io)).toBe(2);
  expect(io.err()).toContain('duplicate_agent_type');
  expect(await cli(['agents', '--agents-dir', ''], testIo(cwd))).toBe(2);
});
