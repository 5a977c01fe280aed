/**
 * Partitions one model response's calls into batches (seed 002): consecutive
 * concurrency-safe calls share a batch and run in parallel; every other call
 * runs alone, in order.
 */
export function partition<T>(calls: readonly T[], isConcurrencySafe: (call: T) => boolean): T[][] {
  const batches: T[][] = [];
  for (const call of calls) {
    const last = batches.at(-1);
    if (isConcurrencySafe(call) && last && isConcurrencySafe(last[0]!)) last.push(call);
    else batches.push([call]);
  }
  return batches;
}

/**
 * Runs batches: each batch's calls concurrently, batches in order. Context
 * changes are applied only after the whole batch has finished, in call order,
 * so parallel calls never observe each other's changes.
 */
export async function runBatches<T, R>(
  calls: readonly T[],
  isConcurrencySafe: (call: T) => boolean,
  run: (call: T) => Promise<R>,
  applyContext: (result: R) => void,
): Promise<R[]> {
  const results: R[] = [];
  for (const batch of partition(calls, isConcurrencySafe)) {
    const settled = await Promise.all(batch.map(run));
    for (const result of settled) applyContext(result);
    results.push(...settled);
  }
  return results;
}
