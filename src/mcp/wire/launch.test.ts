import { describe, expect, test } from 'bun:test';
import { READ_SOURCE_EXPECTED } from '../../excerpt/mcp-read-source.ts';
import { openStrictClient } from '../client/client.ts';
import { procStat } from '../../platform/index.ts';
import { FIXTURE_ENV_ALLOW } from '../../excerpt/fixture-launch.ts';
import { PROBE_ENV_ALLOW } from '../probe/probe-env.ts';
import { buildEnv, envNameAllowed, isCompiled, stdioEndpoint } from './launch.ts';
import { FAST } from '../client/testing/timeouts.ts';
import { isRunning } from './testing/processes.ts';
import { misbehaveLaunch } from '../../excerpt/testing/misbehave-launch.ts';

/** A parent environment full of things that must never reach a server. Injected, not put in process.env. */
const PARENT_ENV = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/home/reviewer',
  LANG: 'C.UTF-8',
  X_API_KEY: 'sk-live-123',
  X_TOKEN: 'tok-456',
  ANTHROPIC_API_KEY: 'sk-ant-789',
  GITHUB_TOKEN: 'ghp_abc',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  AWS_ACCESS_KEY_ID: 'AKIA',
  NODE_OPTIONS: '--require /tmp/evil.js',
  LD_PRELOAD: '/tmp/evil.so',
};
const SECRET_NAMES = ['X_API_KEY', 'X_TOKEN', 'ANTHROPIC_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'AWS_ACCESS_KEY_ID', 'NODE_OPTIONS', 'LD_PRELOAD'];

describe('buildEnv', () => {
  test('copies only allowlisted names; the fixture allowlist is empty', () => {
    expect(buildEnv(FIXTURE_ENV_ALLOW, PARENT_ENV)).toEqual({});
    expect(buildEnv(PROBE_ENV_ALLOW, PARENT_ENV)).toEqual({ PATH: PARENT_ENV.PATH, HOME: PARENT_ENV.HOME, LANG: 'C.UTF-8' });
    expect(buildEnv([], PARENT_ENV, { NO_COLOR: '1' })).toEqual({ NO_COLOR: '1' });
  });

  test('refuses to allowlist credential-looking or loader-hook names (programmer error)', () => {
    for (const name of SECRET_NAMES) {
      expect(envNameAllowed(name)).toBe(false);
      expect(() => buildEnv([name], PARENT_ENV)).toThrow(name);
    }
    expect(envNameAllowed('TOKENIZER_MODE')).toBe(true);
  });
});

test('stdioEndpoint keeps argv, cwd and sorted env names, never a value', () => {
  const launch = { command: ['/usr/bin/srv', '--port', '0'], cwd: '/srv', env: { TZ: 'UTC', LANG: 'C.UTF-8', PATH: '/opt/secret-path-value' } };
  const endpoint = stdioEndpoint(launch);
  expect(endpoint).toEqual({ kind: 'stdio', argv: ['/usr/bin/srv', '--port', '0'], cwd: '/srv', envNames: ['LANG', 'PATH', 'TZ'] });
  expect(JSON.stringify(endpoint)).not.toContain('secret-path-value');
  expect(stdioEndpoint({ ...launch, env: { ...launch.env, PATH: '/other' } })).toEqual(endpoint);
});

test('isCompiled tells a --compile executable from a source run', () => {
  expect(isCompiled('/$bunfs/root/caplab')).toBe(true);
  expect(isCompiled('B:\\~BUN\\root\\caplab.exe')).toBe(true);
  expect(isCompiled('/work/main/src/main.ts')).toBe(false);
  expect(isCompiled()).toBe(false);
});

describe('the spawned server (reporting test server)', () => {
  test('runs in its own session and process group, with only fds 0–2 from the parent and no secrets', async () => {
    const launch = { ...misbehaveLaunch('report'), env: buildEnv(PROBE_ENV_ALLOW, PARENT_ENV) };
    const client = await openStrictClient({ key: 'reporting', launch, tools: [READ_SOURCE_EXPECTED], timeouts: FAST });
    if (!client.ok) throw new Error(client.message);
    try {
      const report = JSON.parse(client.value.instructions ?? '{}') as { fds: { fd: number; target: string }[]; env: string[]; pid: number };
      expect(report.pid).toBe(client.value.pid);
      // setsid: the server leads its own session and group.
      expect(procStat(client.value.pid)).toMatchObject({ pgrp: client.value.pid, session: client.value.pid });

      const inherited = report.fds.filter(({ fd }) => fd <= 2);
      expect(inherited.map(({ fd }) => fd)).toEqual([0, 1, 2]);
      for (const { target } of inherited) expect(target).toMatch(/^(socket|pipe):\[\d+\]$/);
      // Beyond 0–2 only the runtime's own event-loop handles may exist: no file, pipe or socket came from the parent.
      for (const { target } of report.fds.filter(({ fd }) => fd > 2)) expect(target).toMatch(/^anon_inode:/);

      for (const name of SECRET_NAMES) expect(report.env).not.toContain(name);
      expect(report.env).toEqual(Object.keys(launch.env).sort());
      // The binding's server identity names exactly these variables, and the launch's cwd.
      expect(client.value.identity).toMatchObject({ endpoint: { kind: 'stdio', argv: launch.command, cwd: '/', envNames: report.env } });
    } finally {
      await client.value.close();
      expect(isRunning(client.value.pid)).toBe(false);
    }
  });
});
