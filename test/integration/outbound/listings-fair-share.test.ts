import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { balanceOf, walletIdOf } from '../../helpers/app.js';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { POOL_SIZES, WALLET_BUSY } from '../../../src/outbound/pools.js';

/** Buckets of 1000 keys each: a page of 10 buckets counts 10,000 entries, the most one bucket listing counts. */
const BUCKETS = 10;
const KEYS_PER_BUCKET = 1000;
/** Expired keys not swept yet in one bucket: a key listing skips them one by one. */
const EXPIRED_KEYS = 10_000;
/** Paid refusals in the call log: a page filtered by a path none has walks them all, up to its bound. */
const LOGGED_CALLS = 5000;
/** Webhooks with 20 headers each, the most a wallet may have. */
const WEBHOOKS = 100;
/** As many listings at once as a hostile client with 40 connections sends. */
const HOSTILE_CALLS = 40;
const { perKey: LISTINGS_PER_WALLET, maxWaitingPerKey: LISTINGS_WAITING = 0 } = POOL_SIZES.listings;

const LISTINGS = [
  { what: 'its buckets, 10,000 entries counted (GET /kv)', path: `/kv?limit=${BUCKETS}`, cost: 1 },
  { what: "a bucket's keys past 10,000 expired ones (GET /kv/{bucket})", path: '/kv/expired?limit=1', cost: 1 },
  { what: 'its call log filtered by a path (GET /token/logs)', path: '/token/logs?n=100&path=/none', cost: 0 },
  { what: 'its 100 webhooks (GET /webhook)', path: '/webhook', cost: 1 },
] as const;

describeEachStore("listings: one wallet's many cannot hold the service from another", (kind) => {
  const get = useTestApp(kind);
  let base = '';
  let hostile = '';
  let victim = '';

  /** `count` keys of one-kilobyte values in the wallet of `token`, `perBucket` to a bucket named `prefix` + n, written in one statement. */
  async function fill(token: string, count: number, perBucket: number, prefix: string, expiresAt: number) {
    const { store } = get().deps;
    const value = kind === 'postgres' ? 'CAST($2 AS BYTEA)' : 'CAST($2 AS TEXT)';
    const bucket = perBucket >= count ? `'${prefix}'` : `'${prefix}' || CAST(i / ${perBucket} AS TEXT)`;
    await store.writeOne(
      `WITH RECURSIVE n (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1})
INSERT INTO kv (wallet_id, bucket, key, value, expires_at)
SELECT CAST($1 AS BIGINT), ${bucket}, 'k' || CAST(i AS TEXT), ${value}, CAST($3 AS BIGINT) FROM n`,
      [await walletIdOf(get().deps, token), store.storedText('v'.repeat(1000)), expiresAt],
      { touches: ['kv'] },
    );
  }

  beforeAll(async () => {
    await get().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(get().app.server.address() as AddressInfo).port}`;
    hostile = await get().createToken(100_000);
    victim = await get().createToken(1000);
    await fill(hostile, BUCKETS * KEYS_PER_BUCKET, KEYS_PER_BUCKET, 'b', Date.now() + 3_600_000);
    await fill(hostile, EXPIRED_KEYS, EXPIRED_KEYS, 'expired', Date.now() - 1000);
    const headers = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`x-header-${i}`, 'h'.repeat(1000)]));
    for (let i = 0; i < WEBHOOKS; i++) {
      const created = await get().inject({
        method: 'POST',
        url: '/webhook',
        headers: { 'x-token': hostile, 'content-type': 'application/json' },
        payload: { webhookId: `hook${i}`, url: 'https://example.com/hook', headers },
      });
      expect(created.statusCode, created.body).toBe(200);
    }
    // Each a paid 400 (a bad bucket name), logged with its path.
    for (let i = 0; i < LOGGED_CALLS; i++)
      await get().inject({ method: 'GET', url: `/kv/reserved-${i}/k`, headers: { 'x-token': hostile } });
    await get().deps.ledger.flush();
    const set = await fetch(`${base}/kv/mine/k`, {
      method: 'POST',
      headers: { 'x-token': victim, 'content-type': 'text/plain' },
      body: 'mine',
    });
    expect(set.status).toBe(200);
  }, 120_000);

  for (const listing of LISTINGS)
    it(`${listing.what}: a wallet's run one at a time, each on a turn of its own; another wallet's calls answer between them; past its queue, 503 free`, async () => {
      /** Answers as they come, in order: which call answered, with what. */
      const answered: Array<{ who: string; status: number }> = [];
      const call = async (who: string, token: string, path: string): Promise<Response> => {
        const res = await fetch(`${base}${path}`, { headers: { 'x-token': token } });
        answered.push({ who, status: res.status });
        return res;
      };
      const before = await balanceOf(get(), hostile);

      const hostileCalls = Array.from({ length: HOSTILE_CALLS }, () => call('hostile', hostile, listing.path));
      // Once the first listing has answered, the rest are queued or running (looked at every turn: this client shares
      // the service's event loop).
      await expect.poll(() => answered.some((entry) => entry.status === 200), { interval: 1 }).toBe(true);
      const read = await call('victim', victim, '/kv/mine/k');
      expect(read.status).toBe(200);
      expect(await read.text()).toBe('mine');
      const own = await call('victim-listing', victim, listing.path);
      expect(own.status).toBe(200);
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
      // The victim's own listing takes the second slot, not a place behind the hostile queue (16): what answers
      // between its read and it is what this client, on the same event loop, takes to send it.
      expect(listedBefore('victim-listing')).toBeLessThan(listedBefore('victim') + LISTINGS_WAITING / 2);

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
      // Only the listings served were paid for.
      expect(await balanceOf(get(), hostile)).toBe((before ?? 0) - served.length * listing.cost);
    }, 60_000);

  it('a bucket listing still counts every entry it may: 10 buckets of 1000 keys, none capped', async () => {
    const res = await fetch(`${base}/kv?limit=${BUCKETS}`, { headers: { 'x-token': hostile } });
    const page = (await res.json()) as { buckets: Array<{ bucket: string; keys: number; capped: boolean }> };
    expect(page.buckets).toHaveLength(BUCKETS);
    expect(page.buckets[0]).toEqual({
      bucket: 'b0',
      keys: KEYS_PER_BUCKET,
      size: 1000 * KEYS_PER_BUCKET,
      capped: false,
    });
  });
});
