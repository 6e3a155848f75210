import { performance } from 'node:perf_hooks';
import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { analyze } from './sites.js';

const HTML = { 'content-type': 'text/html; charset=utf-8' };
const head = '<!doctype html><html><head><title>Hostile page</title></head><body>';
/** 100,000 nested elements: quadratic work for the old analysis, and a stack overflow (500, cost 0). */
const DEEP_PAGE = `${head}${'<div class="ad">x '.repeat(100_000)}${'</div>'.repeat(100_000)}</body></html>`;
/** About 1.9 MB of sibling elements: more nodes than the analysis builds. */
const HUGE_PAGE = `${head}${'<p class="c">a b</p>'.repeat(95_000)}</body></html>`;

describeEachStore('POST /url-to-metadata: hostile pages', (kind) => {
  const site = useOutboundFixture();
  const get = useTestApp(kind, { env: site.env });
  beforeAll(() => {
    site.receiver().respondWith((request) => {
      if (request.path === '/deep') return { headers: HTML, body: DEEP_PAGE };
      if (request.path === '/huge') return { headers: HTML, body: HUGE_PAGE };
      return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'no' };
    });
  });

  for (const [path, limits] of [
    ['/deep', ['depth', 'bytes']],
    ['/huge', ['bytes', 'nodes', 'time']],
  ] as const) {
    it(`answers ${path} promptly with 200, marked as partly analysed, and charges 55`, async () => {
      const token = await get().createToken(100);
      const started = performance.now();
      const res = await analyze(get(), token, { url: site.url(path) });
      const elapsed = performance.now() - started;
      expect(res.statusCode, res.body).toBe(200);
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['55', '45']);
      const { data } = res.json();
      expect(data.seo.title).toBe('Hostile page');
      expect(data.technical.analysisTruncated).toBe(true);
      expect(limits).toContain(data.technical.analysisLimit);
      expect(elapsed).toBeLessThan(3000);
    });
  }
});
