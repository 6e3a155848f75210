import type { CheerioAPI } from 'cheerio';
import { resolveHttpUrl, sameSite, squash, unique } from './text.js';

export interface LinksData {
  internal: { total: number; urls: string[] };
  external: { total: number; urls: string[]; domains: string[] };
  /** Addresses of `mailto:` links, without their query. */
  mailto: string[];
  /** Numbers of `tel:` links, as written. */
  tel: string[];
  /** Links marked `rel=nofollow` (or sponsored/ugc), resolved. */
  nofollow: number;
}

/** Lists are cut here; `total` still counts every distinct URL. */
const MAX_URLS = 500;
const MAX_CONTACT_LINKS = 50;

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Every `<a href>` of the page, resolved against the document base and de-duplicated, split by site. */
export function extractLinks($: CheerioAPI, base: URL, page: URL): LinksData {
  const internal: string[] = [];
  const external: string[] = [];
  const mailto: string[] = [];
  const tel: string[] = [];
  let nofollow = 0;
  $('a[href], area[href]').each((_i, element) => {
    const href = ($(element).attr('href') ?? '').trim();
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
    if (scheme === 'mailto') {
      const address = squash(decode(href.slice('mailto:'.length).split('?')[0] ?? ''));
      if (address !== '') mailto.push(address.toLowerCase());
      return;
    }
    if (scheme === 'tel') {
      const number = squash(decode(href.slice('tel:'.length)));
      if (number !== '') tel.push(number);
      return;
    }
    const url = resolveHttpUrl(href, base);
    if (url === undefined) return;
    if (/(^|\s)(nofollow|sponsored|ugc)(\s|$)/i.test($(element).attr('rel') ?? '')) nofollow += 1;
    (sameSite(new URL(url), page) ? internal : external).push(url);
  });
  const internalUrls = unique(internal);
  const externalUrls = unique(external);
  return {
    internal: { total: internalUrls.length, urls: internalUrls.slice(0, MAX_URLS) },
    external: {
      total: externalUrls.length,
      urls: externalUrls.slice(0, MAX_URLS),
      domains: unique(externalUrls.map((url) => new URL(url).hostname.toLowerCase())).slice(0, MAX_URLS),
    },
    mailto: unique(mailto).slice(0, MAX_CONTACT_LINKS),
    tel: unique(tel).slice(0, MAX_CONTACT_LINKS),
    nofollow,
  };
}
