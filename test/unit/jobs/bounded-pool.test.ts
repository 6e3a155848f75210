import { describe, expect, it } from 'vitest';
import { drainBatches } from '../../../src/jobs/bounded-pool.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `total` numbered items, handed out `limit` at a time; records each fetch's limit. */
function source(total: number) {
  let next = 0;
  const fetches: number[] = [];
  const fetch = async (limit: number) => {
    fetches.push(limit);
    const items = Array.from({ length: Math.min(limit, total - next) }, () => next++);
    return { items, more: next < total };
  };
  return { fetch, fetches };
}

describe('drainBatches', () => {
  it('handles every item, batch after batch, with at most `concurrency` in flight', async () => {
    const { fetch, fetches } = source(25);
    const handled: number[] = [];
    let running = 0;
    let peak = 0;
    await drainBatches<number>({
      fetch,
      handle: async (item) => {
        running++;
        peak = Math.max(peak, running);
        await sleep(2);
        handled.push(item);
        running--;
      },
      onError: () => undefined,
      concurrency: 4,
      batchSize: 10,
    });
    expect(handled.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(peak).toBe(4);
    expect(fetches).toEqual([10, 10, 10]);
  });

  it('once asked to stop, fetches nothing more but still handles every item it had claimed', async () => {
    const { fetch, fetches } = source(100);
    const handled: number[] = [];
    let stop = false;
    await drainBatches<number>({
      fetch,
      handle: async (item) => {
        stop = true;
        await sleep(1);
        handled.push(item);
      },
      onError: () => undefined,
      concurrency: 2,
      batchSize: 5,
      shouldStop: () => stop,
    });
    expect(fetches).toEqual([5]);
    expect(handled.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
  });

  it('passes a failed item to onError and goes on with the others', async () => {
    const { fetch } = source(5);
    const errors: unknown[] = [];
    const handled: number[] = [];
    await drainBatches<number>({
      fetch,
      handle: async (item) => {
        if (item === 2) throw new Error('item 2');
        handled.push(item);
      },
      onError: (error) => errors.push(error),
      concurrency: 2,
      batchSize: 10,
    });
    expect(errors).toHaveLength(1);
    expect(handled.sort((a, b) => a - b)).toEqual([0, 1, 3, 4]);
  });

  it('rejects with a fetch error, but only after the items in flight are handled', async () => {
    let fetches = 0;
    const handled: number[] = [];
    const failure = new Error('store down');
    const drained = drainBatches<number>({
      fetch: async () => {
        fetches++;
        if (fetches > 1) throw failure;
        return { items: [1, 2], more: true };
      },
      handle: async (item) => {
        await sleep(item === 1 ? 30 : 1);
        handled.push(item);
      },
      onError: () => undefined,
      concurrency: 2,
      batchSize: 2,
    });
    await expect(drained).rejects.toBe(failure);
    expect(handled.sort()).toEqual([1, 2]);
  });
});
