import { describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { analyze, hits, HUGE_BYTES, useSites } from './sites.js';

const JSON_TYPE = 'application/json; charset=utf-8';

describeEachStore('POST /url-to-metadata: pages it can read', (kind) => {
  const { env, sites } = useSites();
  const get = useTestApp(kind, { env });

  describe('a rich HTML page over HTTPS', () => {
    it('answers success, data and timestamp, charging 55 credits', async () => {
      const token = await get().createToken(100);
      const res = await analyze(get(), token, { url: sites().https.url('/rich') });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['55', '45']);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(body.data.ai).toBeUndefined();
    });

    it('extracts seo: title, description, keywords, canonical, language, headings', async () => {
      const token = await get().createToken(100);
      const { data } = (await analyze(get(), token, { url: sites().https.url('/rich') })).json();
      const origin = sites().https.origin;
      expect(data.seo).toMatchObject({
        title: 'Acme Rockets - Reusable launch for small satellites',
        description: 'Acme builds reusable rockets for small satellites.',
        keywords: ['rockets', 'launch', 'satellites'],
        canonical: `${origin}/`,
        language: 'en',
        robots: 'index, follow',
        author: 'Acme Team',
        headings: { h1: ['Reusable rockets for small satellites'], h2: ['Why reusable', 'For universities'], h3: [] },
        alternates: [{ hreflang: 'fr', href: `${origin}/fr/` }],
      });
      expect(data.seo.wordCount).toBeGreaterThan(150);
    });

    it('reports technical facts of the fetch', async () => {
      const token = await get().createToken(100);
      const url = sites().https.url('/rich');
      const { data } = (await analyze(get(), token, { url })).json();
      expect(data.technical).toMatchObject({
        statusCode: 200,
        finalUrl: url,
        originalUrl: url,
        robotsAllowed: true,
        isSecure: true,
        contentType: 'text/html; charset=utf-8',
        truncated: false,
        redirects: 0,
        server: 'test-site',
        lastModified: 'Mon, 01 Jun 2026 10:00:00 GMT',
      });
      expect(data.technical.contentLength).toBeGreaterThan(3000);
      expect(Number.isInteger(data.technical.responseTime)).toBe(true);
    });

    it('splits links into internal and external, resolved and de-duplicated, with mailto and tel apart', async () => {
      const token = await get().createToken(100);
      const { data } = (await analyze(get(), token, { url: sites().https.url('/rich') })).json();
      const origin = sites().https.origin;
      expect(data.links.internal).toEqual({ total: 3, urls: [`${origin}/`, `${origin}/about`, `${origin}/pricing`] });
      expect(data.links.external).toEqual({
        total: 3,
        urls: [
          'https://github.com/acme-rockets',
          'https://x.com/intent/tweet?text=hi',
          'https://partner.example.org/page',
        ],
        domains: ['github.com', 'x.com', 'partner.example.org'],
      });
      expect(data.links.mailto).toEqual(['sales@acme.test']);
      expect(data.links.tel).toEqual(['+1-555-010-0100']);
      expect(data.links.nofollow).toBe(1);
    });

    it('reads Open Graph, Twitter card, social profiles and the favicon', async () => {
      const token = await get().createToken(100);
      const { data } = (await analyze(get(), token, { url: sites().https.url('/rich') })).json();
      const origin = sites().https.origin;
      expect(data.openGraph).toEqual({
        title: 'Acme Rockets',
        description: 'Reusable rockets for everyone',
        type: 'website',
        url: 'https://acme.test/',
        siteName: 'Acme',
        locale: 'en_US',
        image: `${origin}/img/og.png`,
        images: [{ url: `${origin}/img/og.png`, width: 1200, height: 630, alt: 'A rocket at dawn' }],
      });
      expect(data.twitterCard).toEqual({
        card: 'summary_large_image',
        site: '@acmerockets',
        title: 'Acme on Twitter',
        image: `${origin}/img/tw.png`,
      });
      expect(data.social).toEqual({
        x: 'https://x.com/acmerockets',
        linkedin: 'https://www.linkedin.com/company/acme-rockets',
        github: 'https://github.com/acme-rockets',
        favicon: `${origin}/static/favicon.png`,
      });
    });

    it('finds contact e-mails, phones and profiles from links, JSON-LD and text', async () => {
      const token = await get().createToken(100);
      const { data } = (await analyze(get(), token, { url: sites().https.url('/rich') })).json();
      expect(data.contact).toEqual({
        email: 'sales@acme.test',
        phone: '+1-555-010-0100',
        emails: ['sales@acme.test', 'info@acme.test', 'press@acme.test'],
        phones: ['+1-555-010-0100', '+1-555-010-0199', '+44 20 7946 0958'],
        socialProfiles: [
          'https://x.com/acmerockets',
          'https://www.linkedin.com/company/acme-rockets',
          'https://github.com/acme-rockets',
        ],
        address: 'Springfield, US',
      });
    });

    it('lists media and structured data', async () => {
      const token = await get().createToken(100);
      const { data } = (await analyze(get(), token, { url: sites().https.url('/rich') })).json();
      const origin = sites().https.origin;
      expect(data.media.images).toEqual({
        total: 3,
        withoutAlt: 1,
        items: [
          { src: `${origin}/img/rocket.jpg`, alt: 'A rocket on the pad', width: 800, height: 600 },
          { src: `${origin}/img/lazy.jpg`, alt: 'Lazy' },
          { src: `${origin}/img/diagram.png`, alt: '' },
        ],
      });
      expect(data.media.videos).toEqual({
        total: 2,
        urls: [`${origin}/media/launch.mp4`, 'https://www.youtube.com/embed/abc123'],
      });
      expect(data.media.icons).toEqual([
        { rel: 'icon', href: `${origin}/static/favicon.png`, sizes: '32x32', type: 'image/png' },
        { rel: 'apple-touch-icon', href: `${origin}/static/apple.png` },
      ]);
      expect(data.media.logo).toBe(`${origin}/logo.png`);
      expect(data.structuredData.types).toEqual(['Organization', 'WebSite', 'Article']);
      expect(data.structuredData.invalidBlocks).toBe(1);
      expect(data.structuredData.jsonLd).toHaveLength(2);
      expect(data.structuredData.basics).toMatchObject({
        type: 'Organization',
        name: 'Acme Rockets Inc.',
        foundingDate: '2015-03-01',
      });
    });
  });

  it('answers a page with no metadata with empty fields, not errors', async () => {
    const token = await get().createToken(100);
    const url = sites().http.url('/bare');
    const res = await analyze(get(), token, { url });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    expect(data.seo).toEqual({
      title: '',
      description: '',
      keywords: [],
      canonical: '',
      language: '',
      robots: '',
      author: '',
      headings: { h1: [], h2: [], h3: [] },
      alternates: [],
      wordCount: 3,
    });
    expect(data.technical).toMatchObject({ isSecure: false, finalUrl: url, statusCode: 200 });
    expect(data.links).toMatchObject({
      internal: { total: 0, urls: [] },
      external: { total: 0, urls: [], domains: [] },
    });
    expect(data.openGraph).toEqual({});
    expect(data.twitterCard).toEqual({});
    expect(data.social).toEqual({ favicon: `${sites().http.origin}/favicon.ico` });
    expect(data.contact).toMatchObject({ email: '', phone: '', emails: [], phones: [] });
    expect(data.structuredData).toEqual({ types: [], jsonLd: [], basics: null, invalidBlocks: 0 });
  });

  it('treats a body without content-type that looks like HTML as HTML', async () => {
    const token = await get().createToken(100);
    const { data } = (await analyze(get(), token, { url: sites().http.url('/no-content-type') })).json();
    expect(data.technical.contentType).toBe('text/html');
    expect(data.seo.wordCount).toBe(3);
  });

  it('follows redirects across sites and reports the count and both URLs', async () => {
    const token = await get().createToken(100);
    const start = sites().http.url('/redirect/1');
    const res = await analyze(get(), token, { url: start });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    expect(data.technical).toMatchObject({
      originalUrl: start,
      finalUrl: sites().https.url('/rich'),
      redirects: 2,
      isSecure: true,
    });
    expect(data.seo.title).toBe('Acme Rockets - Reusable launch for small satellites');
  });

  it('reports robotsAllowed false for a path robots.txt disallows, and reads robots.txt once per site for a while', async () => {
    const token = await get().createToken(1000);
    const before = hits(sites().http, '/robots.txt');
    const res = await analyze(get(), token, { url: sites().http.url('/private/page') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.technical.robotsAllowed).toBe(false);
    expect(res.json().data.seo.title).toBe('Private');
    const again = await analyze(get(), token, { url: sites().http.url('/bare') });
    expect(again.json().data.technical.robotsAllowed).toBe(true);
    expect(hits(sites().http, '/robots.txt') - before).toBeLessThanOrEqual(1);
  });

  describe('content that is not HTML', () => {
    it('describes an image by its header: format and pixel size', async () => {
      const token = await get().createToken(100);
      const res = await analyze(get(), token, { url: sites().https.url('/image.png') });
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json();
      expect(data.document).toEqual({
        kind: 'image',
        mimeType: 'image/png',
        filename: 'image.png',
        size: expect.any(Number),
        format: 'png',
        width: 3,
        height: 2,
      });
      expect(data.technical).toMatchObject({ contentType: 'image/png', statusCode: 200 });
      expect(data.seo.title).toBe('image.png');
      expect(data.links).toBeUndefined();
    });

    it.each([
      ['/image.avif', 'image/avif', { format: 'avif', width: 640, height: 360 }],
      ['/image.svg', 'image/svg+xml', { format: 'svg', width: 120, height: 80 }],
    ])('describes %s by its size as well', async (path, mimeType, size) => {
      const token = await get().createToken(100);
      const res = await analyze(get(), token, { url: sites().https.url(path) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.document).toEqual({
        kind: 'image',
        mimeType,
        filename: path.slice(1),
        size: expect.any(Number),
        ...size,
      });
    });

    it('describes a PDF: title and page count', async () => {
      const token = await get().createToken(100);
      const { data } = (await analyze(get(), token, { url: sites().https.url('/files/report.pdf') })).json();
      expect(data.document).toMatchObject({
        kind: 'pdf',
        mimeType: 'application/pdf',
        filename: 'report.pdf',
        pages: 2,
      });
      expect(data.seo.title).toBe('Annual report (2025)');
    });

    it('counts the words of plain text and names a download by its content-disposition', async () => {
      const token = await get().createToken(200);
      const text = (await analyze(get(), token, { url: sites().https.url('/notes.txt') })).json().data;
      expect(text.document).toMatchObject({ kind: 'text', filename: 'notes.txt' });
      expect(text.document.wordCount).toBeGreaterThan(150);
      const json = (await analyze(get(), token, { url: sites().https.url('/data.json') })).json().data;
      expect(json.document).toMatchObject({
        kind: 'json',
        mimeType: 'application/json',
        filename: 'export.json',
        size: 7,
      });
    });
  });

  it('reads a huge page only up to the 2 MiB cap and still extracts its head', async () => {
    const token = await get().createToken(100);
    const res = await analyze(get(), token, { url: sites().https.url('/huge') });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    expect(data.technical).toMatchObject({ truncated: true, contentLength: 2 * 1024 * 1024 });
    expect(HUGE_BYTES).toBeGreaterThan(data.technical.contentLength);
    expect(data.seo.title).toBe('Huge page');
  });

  it('logs the call under url-to-metadata with its final cost', async () => {
    const token = await get().createToken(100);
    await analyze(get(), token, { url: sites().https.url('/bare') });
    const logs = (await get().inject({ method: 'GET', url: '/token/logs?n=1', headers: { 'x-token': token } })).json()
      .logs;
    expect(logs[0]).toMatchObject({
      method: 'POST',
      path: '/url-to-metadata',
      endpoint: 'url-to-metadata',
      status_code: 200,
      cost: 55,
      balance: 45,
    });
    expect(logs[0].error).toBeUndefined();
  });

  it('ignores unknown request fields (the body is open)', async () => {
    const token = await get().createToken(100);
    const res = await analyze(get(), token, { url: sites().https.url('/bare'), colour: 'red', aiSummary: 'none' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-cost']).toBe('55');
  });
});
