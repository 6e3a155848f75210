import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { balanceOf, walletIdOf } from '../../helpers/app.js';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { POOL_SIZES, WALLET_BUSY } from '../../../src/outbound/pools.js';

/** Buckets of 1000 keys each: a page of 10 buckets counts 10,000 entries, the most one listing counts. */
const BUCKETS = 10;
const KEYS_PER_BUCKET = 1000;
const LISTING = `/kv?limit=${BUCKETS}`;
/** As many listings at once as a hostile client with 40 connections sends. */
const HOSTILE_CALLS = 40;
const { perKey: LISTINGS_PER_WALLET, maxWaitingPerKey: LISTINGS_WAITING = 0 } = POOL_SIZES.bucketListings;

describeEachStore("GET /kv: one wallet's bucket listings cannot hold the service from another", (kind) => {
  const get = useTestApp(kind);
  let base = '';

  beforeAll(async () => {
    await get().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(get().app.server.address() as AddressInfo).port}`;
  });

  /** 10 buckets of 1000 one-kilobyte values in the wallet of `token`, written in one statement. */
  async function fill(token: string): Promise<void> {
    const { store } = get().deps;
    const value = kind === 'postgres' ? 'CAST($2 AS BYTEA)' : 'CAST($2 AS TEXT)';
    await store.writeOne(
      `WITH RECURSIVE n (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${BUCKETS * KEYS_PER_BUCKET - 1})
INSERT INTO kv (wallet_id, bucket, key, value, expires_at)
SELECT CAST($1 AS BIGINT), 'b' || CAST(i / ${KEYS_PER_BUCKET} AS TEXT), 'k' || CAST(i AS TEXT), ${value}, CAST($3 AS BIGINT) FROM n`,
      [await walletIdOf(get().deps, token), store.storedText('v'.repeat(1000)), Date.now() + 3_600_000],
      { touches: ['kv'] },
    );
  }

  /** Answers as they come, in order: which call answered, with what. */
  const answered: Array<{ who: string; status: number }> = [];
  const call = async (who: string, token: string, path: string): Promise<Response> => {
    const res = await fetch(`${base}${path}`, { headers: { 'x-token': token } });
    answered.push({ who, status: res.status });
    return res;
  };

  it("a wallet's listings run one at a time, each on a turn of its own: another wallet's calls answer between them; past its queue, 503 free", async () => {
    const hostile = await get().createToken(10_000);
    const victim = await get().createToken(100);
    await fill(hostile);
    const set = await fetch(`${base}/kv/mine/k`, {
      method: 'POST',
      headers: { 'x-token': victim, 'content-type': 'text/plain' },
      body: 'mine',
    });
    expect(set.status).toBe(200);
    answered.length = 0;

    const hostileCalls = Array.from({ length: HOSTILE_CALLS }, () => call('hostile', hostile, LISTING));
    // Once the first listing has answered, the rest are queued or running.
    await expect.poll(() => answered.some((entry) => entry.who === 'hostile' && entry.status === 200)).toBe(true);
    const read = await call('victim', victim, '/kv/mine/k');
    expect(read.status).toBe(200);
    expect(await read.text()).toBe('mine');
    const listing = await call('victim-listing', victim, '/kv');
    expect(listing.status).toBe(200);
    const hostileAnswers = await Promise.all(hostileCalls);

    // Before the victim's read, only the listings already running answered (one per wallet, two in all), not the
    // queue: without the pool every listing received ran back to back on the event loop, and the read waited for all.
    const listedBefore = (who: string) =>
      answered
        .slice(
          0,
          answered.findIndex((entry) => entry.who === who),
        )
        .filter((entry) => entry.status === 200).length;
    expect(listedBefore('victim')).toBeLessThanOrEqual(4);
    // The victim's own listing takes the second slot: it waits for at most the hostile one running, not its queue.
    expect(listedBefore('victim-listing')).toBeLessThanOrEqual(listedBefore('victim') + 3);

    const served = hostileAnswers.filter((res) => res.status === 200);
    const refused = hostileAnswers.filter((res) => res.status === 503);
    // The running one and the queue are served; whatever arrived while the queue was full was refused (how many
    // depends on how fast the listings end against how fast the calls arrive).
    expect(served.length).toBeGreaterThanOrEqual(LISTINGS_PER_WALLET + LISTINGS_WAITING);
    expect(served.length + refused.length).toBe(HOSTILE_CALLS);
    for (const res of refused) {
      expect(await res.text()).toBe(WALLET_BUSY);
      expect([res.headers.get('retry-after'), res.headers.get('x-cost')]).toEqual(['1', '0']);
    }
    const page = (await served[0]!.json()) as { buckets: Array<{ keys: number; capped: boolean }> };
    expect(page.buckets).toHaveLength(BUCKETS);
    expect(page.buckets[0]).toMatchObject({ keys: KEYS_PER_BUCKET, capped: false });
    // Only the listings served were paid for.
    expect(await balanceOf(get(), hostile)).toBe(10_000 - served.length);
  }, 60_000);
});
