import { describe, expect, test } from 'bun:test';
import { loadSettings, type ReadText } from './load.ts';

const PATH = '/project/settings.json';

function fromText(text: string | undefined): ReadText {
  return async (path) => (path === PATH ? text : undefined);
}

async function load(value: unknown) {
  return loadSettings(PATH, fromText(JSON.stringify(value)));
}

describe('loadSettings: valid files', () => {
  test('hooks flatten in file order with defaults; rules parse; hash recorded', async () => {
    const text = JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'create_card', hooks: [{ type: 'command', command: 'sh ./a.sh', timeout: 10 }, { type: 'command', command: 'sh ./b.sh' }] },
          { hooks: [{ type: 'command', command: 'sh ./c.sh' }] },
        ],
        PostToolUse: [{ matcher: 'mcp__fixture__.*', hooks: [{ type: 'command', command: 'sh ./d.sh', timeout: 0.5 }] }],
      },
      permissions: { allow: ['read_source'], deny: ['mcp__fixture__create_card'] },
    });
    const loaded = await loadSettings(PATH, fromText(text));
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const hooks = loaded.value.hooks.map((h) => [h.event, h.matcher, h.command, h.timeoutSec, h.baseDir]);
    expect(hooks).toEqual([
      ['PreToolUse', 'create_card', 'sh ./a.sh', 10, '/project'],
      ['PreToolUse', 'create_card', 'sh ./b.sh', 60, '/project'],
      ['PreToolUse', '', 'sh ./c.sh', 60, '/project'],
      ['PostToolUse', 'mcp__fixture__.*', 'sh ./d.sh', 0.5, '/project'],
    ]);
    expect(loaded.value.permissions.allow.map((r) => r.text)).toEqual(['read_source']);
    expect(loaded.value.permissions.ask).toEqual([]);
    expect(loaded.value.permissions.deny).toEqual([{ kind: 'tool', text: 'mcp__fixture__create_card', name: 'mcp__fixture__create_card' }]);
    expect(loaded.value.sha256).toBe(new Bun.CryptoHasher('sha256').update(text).digest('hex'));
  });

  test('an empty object is valid and configures nothing', async () => {
    const loaded = await load({});
    expect(loaded.ok && loaded.value.hooks.length === 0 && loaded.value.permissions.deny.length === 0).toBe(true);
  });
});

describe('loadSettings: errors name the field', () => {
  // [settings value, expected start of the first issue]
  const table: readonly (readonly [unknown, string])[] = [
    [{ hooks: { PreTooluse: [] } }, 'hooks.PreTooluse: unknown field'],
    [{ hooks: { Stop: [] } }, 'hooks.Stop: unknown field'],
    [{ model: 'x' }, 'model: unknown field'],
    [{ hooks: { PreToolUse: {} } }, 'hooks.PreToolUse: expected an array of matcher groups'],
    [{ hooks: { PreToolUse: [{ matcher: '(', hooks: [] }] } }, 'hooks.PreToolUse.0.matcher: matcher "(" is not a valid regular expression'],
    [{ hooks: { PreToolUse: [{ matcher: 3, hooks: [] }] } }, 'hooks.PreToolUse.0.matcher: expected a matcher string'],
    [{ hooks: { PreToolUse: [{ hooks: [{ type: 'prompt', command: 'x' }] }] } }, 'hooks.PreToolUse.0.hooks.0.type: only "command" hooks are supported'],
    [{ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: ' ' }] }] } }, 'hooks.PreToolUse.0.hooks.0.command: expected a non-empty command'],
    [{ hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: 10000 }] }] } }, 'hooks.PostToolUse.0.hooks.0.timeout: expected at most 600 seconds'],
    [{ hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: 0 }] }] } }, 'hooks.PostToolUse.0.hooks.0.timeout: expected more than 0'],
    [{ hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: '5' }] }] } }, 'hooks.PostToolUse.0.hooks.0.timeout: expected seconds as a number'],
    [{ hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'x', async: true }] }] } }, 'hooks.PostToolUse.0.hooks.0.async: unknown field'],
    [{ permissions: { deny: ['Bash(rm -rf)'] } }, 'permissions.deny.0: permission rule "Bash(rm -rf)": content specifiers'],
    [{ permissions: { allow: ['ok', 'mcp__*'] } }, 'permissions.allow.1: permission rule "mcp__*"'],
    [{ permissions: { defaultMode: 'acceptEdits' } }, 'permissions.defaultMode: unknown field'],
    [{ permissions: { ask: 'create_card' } }, 'permissions.ask: expected an array of rule strings'],
  ];
  for (const [value, start] of table) {
    test(start, async () => {
      const loaded = await load(value);
      expect(loaded.ok).toBe(false);
      if (loaded.ok) return;
      expect(loaded.class).toBe('invalid_arguments');
      expect(loaded.kind).toBe('bad_settings');
      expect(loaded.message.startsWith(`settings ${PATH}: ${start}`)).toBe(true);
      expect(loaded.issues?.[0]?.startsWith(start)).toBe(true);
    });
  }

  test('not JSON, an array, missing, unreadable', async () => {
    const notJson = await loadSettings(PATH, fromText('{"hooks": '));
    expect(!notJson.ok && notJson.message.includes('not valid JSON')).toBe(true);
    const array = await load([]);
    expect(!array.ok && array.kind === 'bad_settings').toBe(true);
    const missing = await loadSettings(PATH, fromText(undefined));
    expect(!missing.ok && missing.message === `settings ${PATH}: file not found`).toBe(true);
    const unreadable = await loadSettings(PATH, async () => {
      throw new Error('EACCES: permission denied');
    });
    expect(!unreadable.ok && unreadable.message.includes('cannot read: EACCES')).toBe(true);
  });
});

describe('loadSettings: arrays are not objects', () => {
  for (const [value, start] of [
    [[], 'expected a JSON object at the top level'],
    [{ hooks: [] }, 'hooks: expected an object keyed by event'],
    [{ permissions: [] }, 'permissions: expected an object with allow/ask/deny'],
    [{ hooks: { PreToolUse: [[]] } }, 'hooks.PreToolUse.0: expected a matcher group object'],
    [{ hooks: { PreToolUse: [{ hooks: [[]] }] } }, 'hooks.PreToolUse.0.hooks.0: expected a hook object'],
  ] as const) {
    test(start, async () => {
      const loaded = await load(value);
      expect(loaded.ok).toBe(false);
      if (!loaded.ok) expect(loaded.issues?.[0]).toBe(start);
    });
  }
});
