import { expect, it } from 'vitest';
import { drainFairly } from '../../../src/jobs/fair-drain.js';
import type { ClaimShares } from '../../../src/jobs/fair-drain.js';
import { FairLimiter } from '../../../src/lib/fair-limiter.js';

interface Item {
  readonly wallet: number;
  readonly n: number;
}

/**
 * A store of due items claimed as the scheduler's statement claims them: up to `limit` due rows, none of a full
 * wallet, of which at most each wallet's room is taken; `more` says the rows read filled the limit.
 */
function dueItems(items: Item[]) {
  const due = [...items];
  const fetch = async (limit: number, shares: ClaimShares) => {
    // The claim takes a turn of the event loop, as a store's does: items in hand may end meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    const rows = due.filter((item) => !shares.full.includes(item.wallet)).slice(0, limit);
    const room = new Map<number, number>();
    const taken: Item[] = [];
    for (const item of rows) {
      const left = room.get(item.wallet) ?? shares.roomFor(item.wallet);
      if (left <= 0) continue;
      room.set(item.wallet, left - 1);
      taken.push(item);
      due.splice(due.indexOf(item), 1);
    }
    return { items: taken, more: rows.length === limit };
  };
  return { due, fetch };
}

it('carries out every due item of a wallet whose share is smaller than its work, though its items end during a claim', async () => {
  const pool = new FairLimiter({ slots: 8, perKey: 2 });
  const store = dueItems(Array.from({ length: 25 }, (_, n) => ({ wallet: 1, n })));
  const done: number[] = [];
  await drainFairly<Item>({
    pool,
    keyOf: (item) => item.wallet,
    fetch: store.fetch,
    handle: async (item) => void done.push(item.n),
    onError: (error) => {
      throw error;
    },
    concurrency: 8,
    batchSize: 8,
    recheckMs: 1000,
  });
  expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, n) => n));
  expect(store.due).toEqual([]);
});

it('never runs more than the share of one wallet, and takes up another wallet while the first one waits for itself', async () => {
  const pool = new FairLimiter({ slots: 4, perKey: 2 });
  const store = dueItems([...Array.from({ length: 6 }, (_, n) => ({ wallet: 1, n })), { wallet: 2, n: 100 }]);
  let running = 0;
  let most = 0;
  const order: number[] = [];
  await drainFairly<Item>({
    pool,
    keyOf: (item) => item.wallet,
    fetch: store.fetch,
    handle: async (item) => {
      order.push(item.n);
      if (item.wallet === 1) {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
      }
    },
    onError: (error) => {
      throw error;
    },
    concurrency: 4,
    batchSize: 4,
    recheckMs: 1000,
  });
  expect(most).toBe(2);
  expect(order.indexOf(100)).toBeLessThan(3);
  expect(order).toHaveLength(7);
});

it('tells each claim which wallets have items running with room left, and how much', async () => {
  const pool = new FairLimiter({ slots: 8, perKey: 3 });
  const store = dueItems([
    { wallet: 1, n: 0 },
    { wallet: 2, n: 1 },
  ]);
  const seen: Array<{ busy: readonly (string | number)[]; room: number }> = [];
  let releaseFirst: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (releaseFirst = resolve));
  await drainFairly<Item>({
    pool,
    keyOf: (item) => item.wallet,
    fetch: async (limit, shares) => {
      seen.push({ busy: [...shares.busy], room: shares.roomFor(1) });
      const batch = await store.fetch(limit, shares);
      // Wallet 1's item runs until the next claim has looked at the shares.
      if (seen.length > 1) releaseFirst();
      return batch;
    },
    handle: async (item) => {
      if (item.wallet === 1) await first;
    },
    onError: (error) => {
      throw error;
    },
    concurrency: 8,
    batchSize: 1,
    recheckMs: 1000,
  });
  expect(seen[0]).toEqual({ busy: [], room: 3 });
  expect(seen[1]).toEqual({ busy: [1], room: 2 });
});

it("claims for the pool's reserve once its shared slots are taken: another wallet's item starts while the busy ones hold every shared slot", async () => {
  const pool = new FairLimiter({ slots: 4, perKey: 2, reserved: 2 });
  // Two wallets' slow items are due first and take every shared slot; a third wallet's item falls due behind them.
  const slowItems = [1, 2].flatMap((wallet) => Array.from({ length: 4 }, (_, n) => ({ wallet, n: wallet * 10 + n })));
  const store = dueItems([...slowItems, { wallet: 3, n: 100 }]);
  const slow: Array<() => void> = [];
  const started: number[] = [];
  let sharedTakenWhenVictimStarted = false;
  const drain = drainFairly<Item>({
    pool,
    keyOf: (item) => item.wallet,
    fetch: store.fetch,
    handle: async (item) => {
      started.push(item.n);
      if (item.wallet === 3) {
        sharedTakenWhenVictimStarted = pool.free === 0;
        return;
      }
      await new Promise<void>((resolve) => slow.push(resolve));
    },
    onError: (error) => {
      throw error;
    },
    concurrency: pool.capacity,
    batchSize: 8,
    recheckMs: 1000,
  });
  const deadline = Date.now() + 2000;
  while (!started.includes(100) && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
  expect(started).toContain(100);
  // Only the shared slots went to the busy wallets (2 each): the reserve served the third, not their third items.
  expect(started.filter((n) => n < 100)).toHaveLength(4);
  expect(sharedTakenWhenVictimStarted).toBe(true);
  while (started.length < slowItems.length + 1 || slow.length > 0) {
    slow.splice(0).forEach((release) => release());
    await new Promise((resolve) => setImmediate(resolve));
  }
  await drain;
  expect(store.due).toEqual([]);
});
