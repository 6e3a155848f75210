import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { POOL_SIZES } from '../../../src/outbound/pools.js';
import { analyze, hits, useSites } from '../metadata/sites.js';

/**
 * Wallets that hold every shared page-fetch slot with slow pages (each page answers after 5 s) must not make
 * another wallet's call wait for them: its first fetch starts in the pool's reserve.
 */
describeEachStore('shared pools: other wallets holding every shared slot', (kind) => {
  const { env, sites } = useSites();
  const get = useTestApp(kind, { env });

  it("answers a new wallet's URL-metadata call at once while other wallets hold every shared page-fetch slot", async () => {
    const { slots, perKey } = POOL_SIZES.pageFetches;
    const holders = slots / perKey;
    const slowBefore = hits(sites().https, '/slow');
    const slow: Promise<unknown>[] = [];
    for (let wallet = 0; wallet < holders; wallet++) {
      const token = await get().createToken(55 * perKey);
      for (let call = 0; call < perKey; call++)
        slow.push(analyze(get(), token, { url: sites().https.url(`/slow?w=${wallet}&c=${call}`) }));
    }
    // Every shared slot is taken: the slow pages have all been asked for.
    await expect.poll(() => hits(sites().https, '/slow') - slowBefore, { timeout: 5000, interval: 50 }).toBe(slots);
    expect(get().deps.pools.pageFetches.free).toBe(0);

    const victim = await get().createToken(100);
    const started = performance.now();
    const answer = await analyze(get(), victim, { url: sites().https.url('/bare') });
    const tookMs = performance.now() - started;
    expect(answer.statusCode, answer.body).toBe(200);
    // Not after the slow pages (5 s): at once.
    expect(tookMs).toBeLessThan(2500);
    await Promise.all(slow);
  }, 30_000);
});
