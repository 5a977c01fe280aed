import { expect, test } from 'bun:test';
import { until } from '../../../test/until.ts';
import { spawnChild, type SpawnFn } from '../wire/child.ts';
import { openToolSession } from './session.ts';
import { MISBEHAVE_TOOL } from '../../excerpt/testing/misbehave-server.ts';
import { FAST } from './testing/timeouts.ts';
import { isRunning } from '../wire/testing/processes.ts';
import { misbehaveLaunch } from '../../excerpt/testing/misbehave-launch.ts';

test("an adapter that throws leaves no server behind: the session closes the client, then the error propagates", async () => {
  const pids: number[] = [];
  const spawn: SpawnFn = (launch) => {
    const child = spawnChild(launch);
    if (child.ok) pids.push(child.value.pid);
    return child;
  };
  const opening = openToolSession({
    key: 'misbehaving',
    launch: misbehaveLaunch('ok'),
    tools: [MISBEHAVE_TOOL],
    timeouts: FAST,
    spawn,
    adapt: () => {
      throw new Error('adapter bug');
    },
  });
  await expect(opening).rejects.toThrow('adapter bug');
  expect(pids).toHaveLength(1);
  await until(() => !isRunning(pids[0]!), 2_000);
  expect(isRunning(pids[0]!)).toBe(false);
});
