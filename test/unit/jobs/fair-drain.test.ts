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
 * wallet, of which those `shares.take` allows are taken; `more` says the rows read filled the limit. `claimed`
 * counts every item taken.
 */
function dueItems(items: Item[]) {
  const due = [...items];
  const counts = { claimed: 0 };
  const fetch = async (limit: number, shares: ClaimShares) => {
    // The claim takes a turn of the event loop, as a store's does: items in hand may end meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    const rows = due.filter((item) => !shares.full.includes(item.wallet)).slice(0, limit);
    const taken = rows.filter((item) => shares.take(item.wallet));
    for (const item of taken) due.splice(due.indexOf(item), 1);
    counts.claimed += taken.length;
    return { items: taken, more: rows.length === limit };
  };
  return { due, fetch, counts };
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

it('claims no more than can start: many wallets due at once fill the shared slots and the reserve, none of it waits', async () => {
  const pool = new FairLimiter({ slots: 8, perKey: 2, reserved: 8 });
  // 16 wallets with 2 slow items each, due at once: 8 shared slots (4 wallets' pairs), then 8 reserved (one each of 8 more).
  const store = dueItems(Array.from({ length: 32 }, (_, n) => ({ wallet: Math.floor(n / 2), n })));
  const slow: Array<() => void> = [];
  let started = 0;
  const drain = drainFairly<Item>({
    pool,
    keyOf: (item) => item.wallet,
    fetch: store.fetch,
    handle: async () => {
      started += 1;
      await new Promise<void>((resolve) => slow.push(resolve));
    },
    onError: (error) => {
      throw error;
    },
    concurrency: pool.capacity,
    batchSize: 64,
    recheckMs: 1000,
  });
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  // Before, each wallet's whole room was claimed (32 items): half of them waited in the pool, holding the drain's
  // hands while reserved slots stood free for a wallet that falls due next.
  expect([store.counts.claimed, started, pool.active]).toEqual([16, 16, 16]);
  while (store.due.length > 0 || slow.length > 0) {
    slow.splice(0).forEach((release) => release());
    await new Promise((resolve) => setImmediate(resolve));
  }
  await drain;
  expect(started).toBe(32);
});
