import { expect, test } from 'bun:test';
import { FALLBACK_PATH, hookEnv } from './env.ts';

const PARENT_ENV = { PATH: '/opt/bin', HOME: '/home/h', TZ: 'UTC', GITHUB_TOKEN: 'ghp_abc', EDITOR: 'vi' };

test('a hook gets the allowlist and CLAUDE_PROJECT_DIR, nothing else', () => {
  expect(hookEnv(PARENT_ENV, '/proj')).toEqual({ PATH: '/opt/bin', HOME: '/home/h', TZ: 'UTC', CLAUDE_PROJECT_DIR: '/proj' });
});

test('PATH falls back when the source has none', () => {
  expect(hookEnv({}, '/proj')).toEqual({ PATH: FALLBACK_PATH, CLAUDE_PROJECT_DIR: '/proj' });
});

test('extra names pass through, under the same credential-name guard as MCP servers', () => {
  expect(hookEnv(PARENT_ENV, '/proj', ['EDITOR'])['EDITOR']).toBe('vi');
  expect(() => hookEnv(PARENT_ENV, '/proj', ['GITHUB_TOKEN'])).toThrow('GITHUB_TOKEN');
});
