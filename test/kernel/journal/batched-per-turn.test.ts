import { describe, expect, it } from 'vitest';
import { batchedPerTurn } from '../../../src/kernel/journal/batched-per-turn.ts';

describe('calls gathered per turn of the event loop (src/kernel/journal/batched-per-turn.ts)', () => {
  it('runs the calls of one turn together, and those of a later turn apart', async () => {
    const batches: number[][] = [];
    const call = batchedPerTurn<number>(async (items) => {
      batches.push([...items]);
      return items.map(() => undefined);
    });
    await Promise.all([call(1), call(2), call(3)]);
    await call(4);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('answers each call with its own result', async () => {
    const call = batchedPerTurn<number, string>(async (items) =>
      items.map((item) => `answer ${item}`),
    );
    await expect(Promise.all([call(1), call(2), call(3)])).resolves.toEqual([
      'answer 1',
      'answer 2',
      'answer 3',
    ]);
  });

  it('a failing batch is run again one call at a time: only the bad call fails', async () => {
    const done: number[] = [];
    const call = batchedPerTurn<number, number>(async (items) => {
      if (items.includes(2)) throw new Error(`refused: ${items.join(',')}`);
      done.push(...items);
      return items.map((item) => item * 10);
    });
    const outcomes = await Promise.allSettled([call(1), call(2), call(3)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((outcomes[0] as PromiseFulfilledResult<number>).value).toBe(10);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('refused: 2');
    expect((outcomes[2] as PromiseFulfilledResult<number>).value).toBe(30);
    expect(done.sort()).toEqual([1, 3]);
  });
});
