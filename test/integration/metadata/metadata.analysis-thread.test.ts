import { performance } from 'node:perf_hooks';
import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { POOL_SIZES } from '../../../src/outbound/pools.js';
import { analyze, HTML } from './sites.js';

/** A page near the analysis' bounds (html/limits.ts): 1 MB of links and images, tens of ms of parsing and extraction. */
const HEAVY_PAGE = `<!doctype html><html><head><title>Heavy</title></head><body>${'<a href="/x">x</a><img src="/y.png">'.repeat(28_000)}</body></html>`;
const { perKey: FETCHES_PER_WALLET } = POOL_SIZES.pageFetches;

describeEachStore('POST /url-to-metadata: pages are analysed off the event loop', (kind) => {
  const site = useOutboundFixture();
  const get = useTestApp(kind, { env: site.env });

  beforeAll(() => {
    site.receiver().respondWith(async (request) => {
      if (request.path === '/robots.txt') return { status: 404, body: '' };
      return { headers: { 'content-type': HTML }, body: HEAVY_PAGE };
    });
  });

  it("a wallet's heavy pages, as many as it may fetch at once, leave the event loop free: another wallet's read answers at once", async () => {
    const hostile = await get().createToken(10_000);
    const victim = await get().createToken(10_000);
    await get().inject({
      method: 'POST',
      url: '/kv/mine/k',
      headers: { 'x-token': victim, 'content-type': 'text/plain' },
      payload: 'mine',
    });
    // Warm: the analysis thread starts with the first page.
    expect((await analyze(get(), hostile, { url: site.url('/heavy') })).statusCode).toBe(200);

    const loop = performance.eventLoopUtilization();
    const started = performance.now();
    const calls = Array.from({ length: FETCHES_PER_WALLET }, (_, i) =>
      analyze(get(), hostile, { url: site.url(`/heavy?${i}`) }),
    );
    const reads: number[] = [];
    let pending = true;
    void Promise.all(calls).finally(() => (pending = false));
    while (pending) {
      const at = performance.now();
      const read = await get().inject({ method: 'GET', url: '/kv/mine/k', headers: { 'x-token': victim } });
      expect(read.body).toBe('mine');
      reads.push(performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const answers = await Promise.all(calls);
    const busy = performance.eventLoopUtilization(loop);
    const elapsed = performance.now() - started;

    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().data.seo.title).toBe('Heavy');
    }
    // The pages took their time (one after the other on the analysis thread)…
    expect(elapsed).toBeGreaterThan(FETCHES_PER_WALLET * 50);
    // …while the event loop stayed mostly idle (on it, each held it in one go: utilisation near 1) and the victim's
    // reads kept answering.
    expect(busy.utilization).toBeLessThan(0.5);
    expect(reads.length).toBeGreaterThan(FETCHES_PER_WALLET);
    expect(Math.max(...reads)).toBeLessThan(100);
  }, 60_000);
});
