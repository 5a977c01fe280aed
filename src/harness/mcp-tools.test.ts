import { expect, test } from 'bun:test';
import { LIMITS } from '../contract/index.ts';
import { until } from '../../test/until.ts';
import { createCardContract, excerptTaskOverMcp, FIXTURE_KEY } from '../excerpt/index.ts';
import { misbehaveLaunch } from '../excerpt/testing/misbehave-launch.ts';
import { spawnChild, type SpawnFn } from '../mcp/index.ts';
import { FAST } from '../mcp/client/testing/timeouts.ts';
import { isRunning } from '../mcp/wire/testing/processes.ts';
import { toolNames } from '../pipeline/index.ts';
import { PID_PLACEHOLDER, recordedStderr, withoutPids } from './mcp-tools.ts';
import { openProviders } from './open-tools.ts';
import { localProvider } from './tools.ts';

test('withoutPids replaces the number of every labelled pid, whatever its value, and nothing else', () => {
  const line = (pid: number) => `caplab serve: caplab-fixture 1.0.0 ready (MCP 2025-06-18, stdio; pid ${pid}; inherited fds 0,1,2)\nchild pid=${pid + 1} PID: 7\n`;
  const expected = `caplab serve: caplab-fixture 1.0.0 ready (MCP 2025-06-18, stdio; pid ${PID_PLACEHOLDER}; inherited fds 0,1,2)\nchild pid=${PID_PLACEHOLDER} PID: ${PID_PLACEHOLDER}\n`;
  for (const pid of [18, 2025, 7064, 4194303]) expect(withoutPids(line(pid))).toBe(expected);
  expect(withoutPids('rapid 12; pidfile 3')).toBe('rapid 12; pidfile 3');
});

const bytesOf = (text: string) => new TextEncoder().encode(text).byteLength;

test('recorded server stderr is the tail of at most LIMITS.serverStderrBytes bytes, cut on a code point, pids replaced when reproducible', () => {
  const ascii = `${'head '.repeat(2000)}THE END`;
  const tail = recordedStderr(ascii, false);
  expect(bytesOf(tail)).toBe(LIMITS.serverStderrBytes);
  expect(tail.endsWith('THE END')).toBe(true);
  // Three bytes a character: a byte count cannot land on a boundary every time, and no half character is kept.
  const wide = '語'.repeat(LIMITS.serverStderrBytes);
  expect(recordedStderr(wide, false)).toBe('語'.repeat(Math.floor(LIMITS.serverStderrBytes / 3)));
  expect([recordedStderr('short; pid 42', false), recordedStderr('short; pid 42', true)]).toEqual(['short; pid 42', `short; pid ${PID_PLACEHOLDER}`]);
});

test('a provider whose tool factory throws after the fixture server opened leaves no server behind: the session closes, then the error propagates', async () => {
  const pids: number[] = [];
  const spawn: SpawnFn = (launch) => {
    const child = spawnChild(launch);
    if (child.ok) pids.push(child.value.pid);
    return child;
  };
  const broken = localProvider([
    {
      entry: { contract: createCardContract, implementation: { kind: 'local', version: 'broken/1' } },
      make: () => {
        throw new Error('factory bug');
      },
    },
  ]);
  const fixture = excerptTaskOverMcp({ envSource: {}, launch: misbehaveLaunch('ok'), spawn, timeouts: FAST }).tools({ runId: 'run-factory-bug' })[0]!;
  await expect(openProviders([fixture, broken], { runId: 'run-factory-bug' })).rejects.toThrow('factory bug');
  expect(pids).toHaveLength(1);
  await until(() => !isRunning(pids[0]!), 5_000);
  expect(isRunning(pids[0]!)).toBe(false);
});

test('a served tool is mcp__<key>__<tool> under the key the provider gives its server, offered and open, whatever serverInfo.name the server reports (recorded as reported)', async () => {
  // The misbehaving server reports serverInfo.name `misbehave-ok`; the excerpt's provider calls its server `caplab-fixture`.
  const run = { runId: 'run-key' };
  const provider = excerptTaskOverMcp({ envSource: {}, launch: misbehaveLaunch('ok'), timeouts: FAST }).tools(run)[0]!;
  expect(provider.offers.map((offer) => toolNames(offer))).toEqual([['read_source', `mcp__${FIXTURE_KEY}__read_source`]]);
  const set = await provider.open(run);
  if (!set.ok) throw new Error(set.message);
  try {
    const served = set.value.tools.find((tool) => tool.binding.server !== undefined)!;
    expect(served.binding.server).toMatchObject({ key: FIXTURE_KEY, name: 'misbehave-ok' });
    expect(toolNames(served)).toEqual(['read_source', `mcp__${FIXTURE_KEY}__read_source`]);
    expect(set.value.server?.serverInfo.name).toBe('misbehave-ok');
  } finally {
    await set.value.close();
  }
});
