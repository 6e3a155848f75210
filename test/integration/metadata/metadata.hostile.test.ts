import { performance } from 'node:perf_hooks';
import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { analyze } from './sites.js';
import { SCRIPT_URLS, scriptUrlPage } from '../../fixtures/metadata-pages.js';

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
      const scheme = /^\/script-urls\/(\d+)$/.exec(request.path)?.[1];
      if (scheme !== undefined) return { headers: HTML, body: scriptUrlPage(SCRIPT_URLS[Number(scheme)] ?? '') };
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

  for (const [index, url] of SCRIPT_URLS.entries()) {
    it(`returns no URL of another scheme than http(s) from a page whose every URL field is ${JSON.stringify(url)}`, async () => {
      const token = await get().createToken(100);
      const res = await analyze(get(), token, { url: site.url(`/script-urls/${index}`) });
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json();
      // The page was read: its text, and its one plain https link.
      expect([data.seo.title, data.openGraph.title, data.social.x]).toEqual([
        'Script URLs',
        'Script Corp',
        'https://x.com/scriptcorp',
      ]);
      expect(data.structuredData.basics).toMatchObject({
        name: 'Script Corp',
        url: '',
        logo: '',
        sameAs: ['https://github.com/script-corp'],
      });
      // Every URL in the answer, whatever the field, is http(s); none is a string a browser would read as another scheme.
      const strings = stringsOf(data);
      expect(strings.filter((text) => URL.canParse(text) && !/^https?:$/.test(new URL(text).protocol))).toEqual([]);
      expect(strings.filter((text) => /^(javascript|vbscript|data):/.test(asHref(text)))).toEqual([]);
      // JSON-LD comes back as published, less those URLs.
      expect(data.structuredData.jsonLd[0]).toMatchObject({
        name: 'Script Corp',
        sameAs: ['https://github.com/script-corp'],
        image: [{}],
      });
      // URL properties without a usable value are left out (or empty, where the group's schema has the field). A tab
      // or a control character the markup reading splits or squashes makes a harmless relative reference instead.
      if (url.includes('\t') || url.includes('\u0001')) return;
      for (const key of ['url', 'image', 'images', 'video', 'audio', 'logo', 'seeAlso', 'videoSecureUrl'])
        expect(data.openGraph).not.toHaveProperty(key);
      for (const key of ['image', 'player', 'playerStream', 'url', 'appUrlIphone'])
        expect(data.twitterCard).not.toHaveProperty(key);
      expect(data.seo).toMatchObject({ canonical: '', alternates: [] });
      expect(data.media).toMatchObject({
        images: { total: 0 },
        videos: { total: 0 },
        audio: { total: 0 },
        icons: [],
        logo: '',
      });
      expect(data.links).toMatchObject({ internal: { total: 0 }, external: { urls: ['https://x.com/scriptcorp'] } });
    });
  }
});

/** A string as a browser's URL parser sees its start: leading controls and spaces, and every tab and newline, gone. */
function asHref(text: string): string {
  const joined = text.replace(/[\t\n\r]/g, '');
  let start = 0;
  while (start < joined.length && joined.charCodeAt(start) <= 0x20) start += 1;
  return joined.slice(start).toLowerCase();
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === 'object' && value !== null)
    return [...Object.keys(value), ...Object.values(value).flatMap(stringsOf)];
  return [];
}
