import type { ParsedMarkup } from './markup.js';
import { hasRel } from './seo.js';
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
/** Longer href values are skipped, not parsed: no real link is that long, and parsing stays bounded. */
const MAX_HREF = 8 * 1024;

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Every `<a href>` of the page, resolved against the document base and de-duplicated, split by site. */
export function extractLinks(markup: ParsedMarkup, base: URL, page: URL): LinksData {
  const internal: string[] = [];
  const external: string[] = [];
  const mailto: string[] = [];
  const tel: string[] = [];
  let nofollow = 0;
  const seen = new Map<string, { url: string; internal: boolean } | null>();
  for (const element of markup.elementsOf('a', 'area')) {
    const raw = element.attribs.href;
    if (raw === undefined || raw.length > MAX_HREF) continue;
    const href = raw.trim();
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
    if (scheme === 'mailto') {
      const address = squash(decode(href.slice('mailto:'.length).split('?')[0] ?? ''));
      if (address !== '') mailto.push(address.toLowerCase());
      continue;
    }
    if (scheme === 'tel') {
      const number = squash(decode(href.slice('tel:'.length)));
      if (number !== '') tel.push(number);
      continue;
    }
    // Pages repeat their links: each distinct href is resolved once.
    let resolved = seen.get(href);
    if (resolved === undefined) {
      const url = resolveHttpUrl(href, base);
      resolved = url === undefined ? null : { url, internal: sameSite(new URL(url), page) };
      seen.set(href, resolved);
    }
    if (resolved === null) continue;
    if (hasRel(element, 'nofollow') || hasRel(element, 'sponsored') || hasRel(element, 'ugc')) nofollow += 1;
    (resolved.internal ? internal : external).push(resolved.url);
  }
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
