/**
 * Gathers the calls made during one turn of the event loop and runs them together: one journal
 * transaction for the steps that ended, or the leads that arrived, in the same turn instead of one
 * each, whose fixed cost (BEGIN, COMMIT and the pages it writes, the wait for the disk) was most of
 * their journal work (docs/performance.md). `runAll` answers each item in order. If the batch
 * fails, each call is run alone, so that one bad item cannot fail the others. Written here because
 * it is a few lines over the store's own transactions.
 */
export function batchedPerTurn<T, R = void>(
  runAll: (items: readonly T[]) => Promise<readonly R[]>,
): (item: T) => Promise<R> {
  let queue: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];

  async function flush(): Promise<void> {
    const batch = queue;
    queue = [];
    try {
      const results = await runAll(batch.map((entry) => entry.item));
      batch.forEach((entry, index) => entry.resolve(results[index]!));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const entry of batch) {
        runAll([entry.item]).then((results) => entry.resolve(results[0]!), entry.reject);
      }
    }
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (queue.length === 1) setImmediate(() => void flush());
    });
}
