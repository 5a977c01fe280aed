import { expect, test } from 'bun:test';
import { partition, runBatches } from './batch.ts';

/** A promise the test resolves by hand: no sleeps, no timing. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Drains pending microtasks: deterministic, no timers involved. */
async function flush() {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

test('partition: consecutive safe calls share a batch; unsafe calls stand alone, in order', () => {
  const calls = ['r1', 'r2', 'W3', 'r4', 'W5', 'W6', 'r7', 'r8', 'r9'];
  expect(partition(calls, (c) => c.startsWith('r'))).toEqual([['r1', 'r2'], ['W3'], ['r4'], ['W5'], ['W6'], ['r7', 'r8', 'r9']]);
});

test('safe calls overlap, unsafe calls do not, and results and context keep call order', async () => {
  const gates = new Map(['r1', 'r2', 'W3', 'r4'].map((id) => [id, deferred<void>()]));
  const running = new Set<string>();
  const overlaps: string[][] = [];
  const started: string[] = [];
  const applied: string[] = [];
  const run = async (id: string) => {
    started.push(id);
    running.add(id);
    overlaps.push([...running].sort());
    await gates.get(id)!.promise;
    running.delete(id);
    return `result:${id}`;
  };
  const done = runBatches(['r1', 'r2', 'W3', 'r4'], (c) => c.startsWith('r'), run, (r) => applied.push(r));

  await flush(); // let the first batch start
  expect(started).toEqual(['r1', 'r2']); // both safe calls are in flight together
  expect(running).toEqual(new Set(['r1', 'r2']));
  gates.get('r2')!.resolve(); // finish out of order
  await flush();
  expect(applied).toEqual([]); // context changes wait for the whole batch
  expect(started).not.toContain('W3'); // the unsafe call waits for the batch
  gates.get('r1')!.resolve();
  await flush();
  expect(applied).toEqual(['result:r1', 'result:r2']); // applied in call order, not finish order
  expect(started).toEqual(['r1', 'r2', 'W3']);
  expect(running).toEqual(new Set(['W3'])); // the unsafe call runs alone
  gates.get('W3')!.resolve();
  await flush();
  expect(started).toEqual(['r1', 'r2', 'W3', 'r4']);
  gates.get('r4')!.resolve();
  const results = await done;
  expect(results).toEqual(['result:r1', 'result:r2', 'result:W3', 'result:r4']);
  expect(applied).toEqual(results);
  expect(overlaps.some((set) => set.length === 2 && set.includes('r1') && set.includes('r2'))).toBe(true);
  expect(overlaps.some((set) => set.includes('W3') && set.length > 1)).toBe(false);
});
