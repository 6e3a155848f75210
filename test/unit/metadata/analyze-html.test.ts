import { describe, expect, it } from 'vitest';
import { analyzeHtml } from '../../../src/features/metadata/html/analyze-html.js';
import { extractContact } from '../../../src/features/metadata/html/contact.js';
import { extractProfiles } from '../../../src/features/metadata/html/social.js';
import { camelKey, clip, resolveHttpUrl } from '../../../src/features/metadata/html/text.js';

const page = (html: string, url = 'https://www.site.test/blog/post', charset?: string) =>
  analyzeHtml({ body: Buffer.from(html, 'latin1'), url: new URL(url), charset });

describe('HTML analysis', () => {
  it('resolves links against <base href> and treats www and bare host as one site', () => {
    const result = page(
      '<base href="https://site.test/docs/"><a href="intro">a</a><a href="https://site.test/x">b</a><a href="//cdn.other.test/y">c</a>',
    );
    expect(result.links.internal.urls).toEqual(['https://site.test/docs/intro', 'https://site.test/x']);
    expect(result.links.external).toEqual({
      total: 1,
      urls: ['https://cdn.other.test/y'],
      domains: ['cdn.other.test'],
    });
  });

  it('skips fragment-only, javascript: and data: links', () => {
    const result = page(
      '<a href="#top">t</a><a href="javascript:alert(1)">j</a><a href="data:text/html,x">d</a><a href="  ">e</a>',
    );
    expect(result.links.internal.total + result.links.external.total).toBe(0);
  });

  it('decodes with the content-type charset, else the meta charset', () => {
    const latin = Buffer.from('<title>Caf\xe9 cr\xe8me</title>', 'latin1');
    expect(analyzeHtml({ body: latin, url: new URL('https://a.test/'), charset: 'iso-8859-1' }).seo.title).toBe(
      'Café crème',
    );
    expect(page('<meta charset="windows-1252"><title>Caf\xe9</title>').seo.title).toBe('Café');
    expect(
      analyzeHtml({ body: Buffer.from('<title>Café</title>', 'utf8'), url: new URL('https://a.test/') }).seo.title,
    ).toBe('Café');
  });

  it('falls back to og:title and og:description for seo title and description', () => {
    const result = page(
      '<meta property="og:title" content="OG title"><meta property="og:description" content="OG text">',
    );
    expect([result.seo.title, result.seo.description]).toEqual(['OG title', 'OG text']);
  });

  it('keeps the main content and drops page furniture', () => {
    const article = 'This is a long article sentence that carries the content of the page. '.repeat(5);
    const result = page(`<nav>Menu Home Products</nav><div id="cookie-consent">Accept cookies</div>
      <div class="content"><p>${article}</p><div class="share-buttons">Share on X</div></div><footer>Copyright</footer>`);
    expect(result.mainText).toBe(article.trim());
  });

  it('keeps a wrapper whose class looks like noise when it holds the article', () => {
    const article = 'Words of the real article that must survive extraction intact. '.repeat(5);
    const result = page(`<div class="layout-with-sidebar"><article><p>${article}</p></article></div>`);
    expect(result.mainText).toBe(article.trim());
  });

  it('reads the JSON-LD entity that best describes the site, through @graph and arrays', () => {
    const result = page(
      `<script type="application/ld+json">[{"@type":"BreadcrumbList"},{"@graph":[{"@type":["LocalBusiness"],"name":"Shop","telephone":"+33 1 23 45 67 89","address":"1 rue X, Paris"}]}]</script>`,
    );
    expect(result.structuredData.types).toEqual(['BreadcrumbList', 'LocalBusiness']);
    expect(result.structuredData.basics).toMatchObject({
      type: 'LocalBusiness',
      name: 'Shop',
      telephone: '+33 1 23 45 67 89',
      address: '1 rue X, Paris',
    });
    expect(result.contact.phones).toEqual(['+33 1 23 45 67 89']);
  });
});

describe('social profiles', () => {
  it('recognises profiles and ignores share links and posts', () => {
    expect(
      extractProfiles([
        'https://twitter.com/intent/tweet?url=x',
        'https://www.facebook.com/sharer/sharer.php?u=x',
        'https://www.instagram.com/p/abc123/',
        'https://twitter.com/acme',
        'https://www.facebook.com/acme',
        'https://www.youtube.com/@acme',
        'https://www.tiktok.com/@acme',
        'https://mastodon.social/@acme',
        'https://bsky.app/profile/acme.test',
        'https://github.com/acme/repo',
      ]),
    ).toEqual({
      x: 'https://twitter.com/acme',
      facebook: 'https://www.facebook.com/acme',
      youtube: 'https://www.youtube.com/@acme',
      tiktok: 'https://www.tiktok.com/@acme',
      mastodon: 'https://mastodon.social/@acme',
      bluesky: 'https://bsky.app/profile/acme.test',
    });
  });
});

describe('contact extraction', () => {
  const base = { mailto: [], tel: [], jsonLdEmail: '', jsonLdTelephone: '', jsonLdAddress: '', profiles: {} };

  it('ignores asset names and placeholder addresses that look like e-mails', () => {
    const contact = extractContact({ ...base, text: 'logo@2x.png you@example.com real@acme.test sprite@3x.webp' });
    expect(contact.emails).toEqual(['real@acme.test']);
  });

  it('finds international and North American numbers, not dates or ids', () => {
    const contact = extractContact({
      ...base,
      text: 'Call +1 (555) 010-0100 or (555) 123-4567. Order 2024-01-15, id 123456789.',
    });
    expect(contact.phones).toEqual(['+1 (555) 010-0100', '(555) 123-4567']);
  });

  it('de-duplicates numbers written differently', () => {
    const contact = extractContact({ ...base, tel: ['+4420 7946 0958'], text: '+44 20 7946 0958' });
    expect(contact.phones).toEqual(['+4420 7946 0958']);
  });
});

describe('text helpers', () => {
  it('resolves only http(s) URLs, without fragments', () => {
    const base = new URL('https://a.test/x/y');
    expect(resolveHttpUrl('../z#frag', base)).toBe('https://a.test/z');
    expect(resolveHttpUrl('mailto:a@b.c', base)).toBeUndefined();
    expect(resolveHttpUrl('http://[bad', base)).toBeUndefined();
  });

  it('camel-cases property names and clips at word boundaries', () => {
    expect(camelKey('site_name')).toBe('siteName');
    expect(camelKey('image:alt')).toBe('imageAlt');
    expect(clip('one two three four', 10)).toBe('one two…');
  });
});
