import { beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { checkPageUrl, MAX_PAGE_URL_LENGTH } from '../../../src/features/metadata/page-url-rules.js';

// The console's URL-metadata form refuses in the page what checkPageUrl refuses (console/src/pages/tools/metadata-form.tsx):
// the running service must answer each such URL with exactly that 400, so the page never lets a refused (and charged)
// call through with other words, nor refuses one the service would take.
const REFUSED = [
  '',
  'not a url',
  'example.com/page',
  'ftp://example.com/',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'https://user:secret@example.com/',
  'https://user@example.com/',
  `https://example.com/${'x'.repeat(MAX_PAGE_URL_LENGTH)}`,
];
const TAKEN = ['https://example.com/', ' http://example.com/page?q=1 ', 'HTTPS://EXAMPLE.COM/'];

describeEachStore('url-to-metadata: the URL rules shared with the console', (kind) => {
  const get = useTestApp(kind);
  let token: string;
  beforeEach(async () => {
    token = await get().createToken(10_000);
  });

  it('refuses each URL checkPageUrl refuses, with its words, as a 400', async () => {
    for (const url of REFUSED) {
      const checked = checkPageUrl(url);
      expect(checked.ok, url).toBe(false);
      const res = await get().inject({
        method: 'POST',
        url: '/url-to-metadata',
        headers: { 'x-token': token, 'content-type': 'application/json' },
        payload: JSON.stringify({ url }),
      });
      expect([url, res.statusCode, res.json<{ error: string }>().error]).toEqual([
        url,
        400,
        checked.ok ? '' : checked.error,
      ]);
    }
  });

  it('takes the URLs the service parses, trimmed as the service trims them', () => {
    for (const url of TAKEN) {
      const checked = checkPageUrl(url);
      expect([url, checked.ok && checked.url.href]).toEqual([url, new URL(url.trim()).href]);
    }
  });
});
