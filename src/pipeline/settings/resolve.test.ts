import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { HookInput } from '../hook.ts';
import { runHookEvent } from '../hooks/index.ts';
import { hooksFromSettings } from './hooks-from-settings.ts';
import { PROJECT_SETTINGS, resolveSettings } from './resolve.ts';

const FIXTURES = resolve(import.meta.dir, '../../../fixtures/hooks');
const scratch = mkdtempSync(join(tmpdir(), 'caplab-settings-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A project checkout whose `.caplab/settings.json` would block every tool. */
function project(name: string): string {
  const root = join(scratch, name);
  mkdirSync(join(root, '.caplab'), { recursive: true });
  writeFileSync(join(root, 'guard.sh'), 'cat >/dev/null\necho "project hook ran" >&2\nexit 2\n');
  writeFileSync(
    join(root, PROJECT_SETTINGS),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'sh "$CLAUDE_PROJECT_DIR"/guard.sh' }] }] },
      permissions: { deny: ['read_source'] },
    }),
  );
  return root;
}

function input(toolName: string, cwd: string): HookInput {
  return {
    session_id: 's',
    transcript_path: 't',
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: {},
    tool_use_id: 'u',
  };
}

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/nowhere' };

describe('resolveSettings: trust', () => {
  test('an untrusted project file is ignored, with a notice', async () => {
    const root = project('untrusted');
    const resolved = await resolveSettings({ trustProject: false, cwd: root });
    expect(resolved.ok).toBe(true);
    if (!resolved.ok) return;
    expect(resolved.value.sources).toEqual([]);
    expect(resolved.value.hooks).toEqual([]);
    expect(resolved.value.permissions.deny).toEqual([]);
    expect(resolved.value.notices).toHaveLength(1);
    expect(resolved.value.notices[0]).toContain(`ignored untrusted project settings ${join(root, PROJECT_SETTINGS)}`);
  });

  test('an untrusted project file is still ignored when another file is named', async () => {
    const root = project('untrusted-named');
    const resolved = await resolveSettings({ settingsPaths: [join(FIXTURES, 'deny-rule.settings.json')], trustProject: false, cwd: root });
    if (!resolved.ok) throw new Error(resolved.message);
    expect(resolved.value.sources.map((s) => s.path)).toEqual([join(FIXTURES, 'deny-rule.settings.json')]);
    expect(resolved.value.permissions.deny.map((r) => r.text)).toEqual(['create_card']);
    expect(resolved.value.notices[0]).toContain('ignored untrusted project settings');
  });

  test('--trust-project applies it; its hooks run in the project root', async () => {
    const root = project('trusted');
    const resolved = await resolveSettings({ trustProject: true, cwd: root });
    if (!resolved.ok) throw new Error(resolved.message);
    expect(resolved.value.notices).toEqual([]);
    expect(resolved.value.permissions.deny.map((r) => r.text)).toEqual(['read_source']);
    const hooks = hooksFromSettings(resolved.value, { env });
    const { results } = await runHookEvent(hooks, 'PreToolUse', ['create_card'], input('create_card', root), new AbortController().signal);
    expect(results[0]?.block).toBe('project hook ran');
  });

  test('naming the project file with --settings applies it without --trust-project', async () => {
    const root = project('named');
    const resolved = await resolveSettings({ settingsPaths: [PROJECT_SETTINGS], trustProject: false, cwd: root });
    if (!resolved.ok) throw new Error(resolved.message);
    expect(resolved.value.notices).toEqual([]);
    expect(resolved.value.sources).toHaveLength(1);
  });

  test('--trust-project without a project file says so', async () => {
    const resolved = await resolveSettings({ trustProject: true, cwd: scratch });
    expect(resolved.ok && resolved.value.notices[0]?.startsWith('--trust: no project settings')).toBe(true);
  });

  test('a bad named file fails the whole resolution', async () => {
    const bad = join(scratch, 'bad.json');
    writeFileSync(bad, '{"hooks":{"PreToolUse":[{"matcher":"(","hooks":[]}]}}');
    const resolved = await resolveSettings({ settingsPaths: [bad], trustProject: false, cwd: scratch });
    expect(!resolved.ok && resolved.kind === 'bad_settings' && resolved.message.includes('hooks.PreToolUse.0.matcher')).toBe(true);
  });
});

describe('fixture settings files, from an unrelated cwd', () => {
  async function hooksOf(file: string) {
    const resolved = await resolveSettings({ settingsPaths: [join(FIXTURES, file)], trustProject: false, cwd: scratch });
    if (!resolved.ok) throw new Error(resolved.message);
    return hooksFromSettings(resolved.value, { env });
  }

  test('deny-create.settings.json blocks create_card and only create_card', async () => {
    const hooks = await hooksOf('deny-create.settings.json');
    const read = await runHookEvent(hooks, 'PreToolUse', ['read_source'], input('read_source', scratch), new AbortController().signal);
    expect(read.results).toEqual([]);
    const { verdict } = await runHookEvent(hooks, 'PreToolUse', ['create_card'], input('create_card', scratch), new AbortController().signal);
    expect(verdict.block).toEqual({
      hook: 'sh ./deny-create.sh',
      reason: 'deny-create.sh: creating cards is not allowed by this settings file',
    });
  });

  test('rewrite-input.settings.json rewrites create_card input', async () => {
    const hooks = await hooksOf('rewrite-input.settings.json');
    const { verdict } = await runHookEvent(hooks, 'PreToolUse', ['create_card'], input('create_card', scratch), new AbortController().signal);
    expect(verdict.block).toBeUndefined();
    expect(verdict.decision).toBeUndefined();
    expect(verdict.updatedInput?.hook).toBe('sh ./rewrite-input.sh');
    expect(verdict.updatedInput?.input).toHaveProperty('excerpts');
  });
});
