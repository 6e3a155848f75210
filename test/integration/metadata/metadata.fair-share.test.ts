import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, expect, it } from 'vitest';
import { balanceOf } from '../../helpers/app.js';
import { describeEachStore } from '../../helpers/each-store.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { POOL_SIZES } from '../../../src/outbound/pools.js';
import { analyze, HTML } from './sites.js';

const SLOW_PAGE_MS = 1500;
const PAGE = '<!doctype html><html><head><title>Page</title></head><body><p>Hello</p></body></html>';
const { perKey: FETCHES_PER_WALLET, maxWaitingPerKey: FETCHES_WAITING = 0 } = POOL_SIZES.pageFetches;
/** As many calls at once as a hostile client with 70 connections sends. */
const HOSTILE_CALLS = 70;

describeEachStore('POST /url-to-metadata: one wallet cannot take the page fetches of others', (kind) => {
  const site = useOutboundFixture();
  const get = useTestApp(kind, { env: site.env });
  /** Slow pages being answered now, and the most at once. */
  const slow = { now: 0, most: 0 };

  beforeAll(() => {
    site.receiver().respondWith(async (request) => {
      if (request.path === '/robots.txt') return { status: 404, body: '' };
      if (request.path === '/slow') {
        slow.now += 1;
        slow.most = Math.max(slow.most, slow.now);
        await sleep(SLOW_PAGE_MS);
        slow.now -= 1;
      }
      return { headers: { 'content-type': HTML }, body: PAGE };
    });
  });

  it("a wallet's many slow fetches hold only its share; another wallet's fast fetches answer at once; calls past its queue bound get 503, free", async () => {
    const hostile = await get().createToken(10_000);
    const victim = await get().createToken(1000);
    const hostileCalls = Array.from({ length: HOSTILE_CALLS }, () =>
      analyze(get(), hostile, { url: site.url('/slow') }),
    );
    const deadline = performance.now() + 5000;
    while (slow.now < FETCHES_PER_WALLET && performance.now() < deadline) await sleep(10);

    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const res = await analyze(get(), victim, { url: site.url('/fast') });
      const elapsed = performance.now() - started;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.seo.title).toBe('Page');
      expect(elapsed).toBeLessThan(1000);
    }

    const answers = await Promise.all(hostileCalls);
    expect(slow.most).toBe(FETCHES_PER_WALLET);
    const refused = answers.filter((answer) => answer.statusCode === 503);
    expect(refused.length).toBe(HOSTILE_CALLS - FETCHES_PER_WALLET - FETCHES_WAITING);
    for (const answer of refused) {
      expect(answer.json()).toEqual({
        success: false,
        error: 'Too many calls of this wallet in progress: try again shortly',
      });
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.headers['x-cost']).toBe('0');
    }
    const served = answers.filter((answer) => answer.statusCode === 200);
    expect(served.length).toBe(FETCHES_PER_WALLET + FETCHES_WAITING);
    expect(await balanceOf(get(), hostile)).toBe(10_000 - 55 * served.length);
  }, 60_000);
});
