import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { beforeAll, expect, it } from 'vitest';
import { balanceOf } from '../../helpers/app.js';
import { describeEachStore } from '../../helpers/each-store.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { POOL_SIZES } from '../../../src/outbound/pools.js';
import { METADATA_COST } from '../../../src/features/metadata/metadata.routes.js';
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
    let reads = 0;
    let pending = true;
    void Promise.all(calls).finally(() => (pending = false));
    while (pending) {
      const read = await get().inject({ method: 'GET', url: '/kv/mine/k', headers: { 'x-token': victim } });
      expect(read.body).toBe('mine');
      reads += 1;
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
    expect(busy.utilization).toBeLessThan(0.8);
    expect(reads).toBeGreaterThan(FETCHES_PER_WALLET);
  }, 60_000);
});

describeEachStore("POST /url-to-metadata at the stop's cut", (kind) => {
  const site = useOutboundFixture();
  const get = useTestApp(kind, { env: site.env });

  beforeAll(() => {
    site.receiver().respondWith(async (request) => {
      if (request.path === '/robots.txt') return { status: 404, body: '' };
      return { headers: { 'content-type': HTML }, body: '<!doctype html><title>Page</title>' };
    });
  });

  it("holds a wallet's fetched pages only in its share of the page fetches: more calls wait for a slot, unfetched", async () => {
    const token = await get().createToken(10_000);
    let release!: () => void;
    const held = get().deps.pools.pageAnalyses.run('another wallet', () => new Promise<void>((r) => (release = r)));
    const fetched = () => site.receiver().requests.filter((request) => request.path.startsWith('/held')).length;
    const calls = Array.from({ length: FETCHES_PER_WALLET * 2 }, (_, i) =>
      analyze(get(), token, { url: site.url(`/held?${i}`) }),
    );
    await expect.poll(fetched).toBe(FETCHES_PER_WALLET);
    // Their analyses wait for the thread: the others are not fetched meanwhile (a body is up to 2 MiB).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fetched()).toBe(FETCHES_PER_WALLET);
    release();
    await held;
    for (const answer of await Promise.all(calls)) expect(answer.statusCode, answer.body).toBe(200);
    expect(fetched()).toBe(FETCHES_PER_WALLET * 2);
  }, 30_000);

  it('refunds a call still waiting for its analysis when the stop cuts the connections, and logs it so', async () => {
    await get().app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(get().app.server.address() as AddressInfo).port}`;
    const token = await get().createToken(1000);
    // The analysis thread's one turn is taken: the call's page is fetched, then it waits.
    let release!: () => void;
    const held = get().deps.pools.pageAnalyses.run('another wallet', () => new Promise<void>((r) => (release = r)));
    const call = fetch(`${base}/url-to-metadata`, {
      method: 'POST',
      headers: { 'x-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ url: site.url('/page') }),
    }).then(
      (answer) => answer.status,
      () => 'cut',
    );
    await expect.poll(() => site.receiver().requests.some((request) => request.path === '/page')).toBe(true);
    await expect.poll(() => balanceOf(get(), token)).toBe(1000 - METADATA_COST);

    // What the stop does once its grace is over (service.ts drain).
    get().deps.readiness.markConnectionsCut();
    get().app.server.closeAllConnections();
    expect(await call).toBe('cut');
    release();
    await held;

    await expect.poll(() => balanceOf(get(), token)).toBe(1000);
    await get().deps.ledger.flush();
    const logs = await get().inject({
      method: 'GET',
      url: '/token/logs?type=url-to-metadata',
      headers: { 'x-token': token },
    });
    expect(logs.json<{ logs: unknown[] }>().logs).toMatchObject([{ status_code: 503, cost: 0 }]);
  }, 30_000);
});
