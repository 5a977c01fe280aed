import { expect, test } from 'bun:test';
import { buildEnv, envNameAllowed } from './env.ts';

/** A parent environment full of things that must never reach a child. Injected, not put in process.env. */
const PARENT_ENV = { PATH: '/usr/bin:/bin', HOME: '/home/reviewer', X_API_KEY: 'sk-live-123', NODE_OPTIONS: '--require /tmp/evil.js' };
const GUARDED = ['X_API_KEY', 'X_TOKEN', 'ANTHROPIC_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'AWS_ACCESS_KEY_ID', 'DB_PASSWORD', 'NODE_OPTIONS', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'BUN_OPTIONS', 'GOOGLE_CREDENTIALS', 'BASIC_AUTH'];

test('copies only the allowlisted names that are present, then the fixed ones', () => {
  expect(buildEnv(['PATH', 'LANG'], PARENT_ENV)).toEqual({ PATH: '/usr/bin:/bin' });
  expect(buildEnv([], PARENT_ENV, { NO_COLOR: '1' })).toEqual({ NO_COLOR: '1' });
  expect(buildEnv([], PARENT_ENV)).toEqual({});
});

test('refuses credential-looking and loader-hook names, on the list or among the fixed ones', () => {
  for (const name of GUARDED) {
    expect({ name, allowed: envNameAllowed(name) }).toEqual({ name, allowed: false });
    expect(() => buildEnv([name], PARENT_ENV)).toThrow(name);
    expect(() => buildEnv([], PARENT_ENV, { [name]: 'x' })).toThrow(name);
  }
});

test('a name that only contains a guarded word is not guarded', () => {
  for (const name of ['TOKENIZER_MODE', 'AUTHOR', 'PATH', 'LC_ALL']) expect({ name, allowed: envNameAllowed(name) }).toEqual({ name, allowed: true });
});
