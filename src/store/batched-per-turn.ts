/**
 * Gathers the calls made during one turn of the event loop and runs them together: one journal
 * transaction for the steps that ended in the same turn instead of one each, whose fixed cost
 * (BEGIN, COMMIT, the wait for the disk) was most of a step's journal work (docs/performance.md,
 * "Delivery path"). If the batch fails, each call is run alone, so that one bad item cannot fail the
 * others. Written here because it is a few lines over the store's own transactions.
 */
export function batchedPerTurn<T>(
  runAll: (items: readonly T[]) => Promise<void>,
): (item: T) => Promise<void> {
  let queue: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];

  async function flush(): Promise<void> {
    const batch = queue;
    queue = [];
    try {
      await runAll(batch.map((entry) => entry.item));
      for (const entry of batch) entry.resolve();
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const entry of batch) runAll([entry.item]).then(entry.resolve, entry.reject);
    }
  }

  return (item) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (queue.length === 1) setImmediate(() => void flush());
    });
}
