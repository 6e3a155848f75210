import type { CheerioAPI } from 'cheerio';
import { clip, resolveHttpUrl, squash, unique } from './text.js';

export interface SeoData {
  title: string;
  description: string;
  keywords: string[];
  canonical: string;
  language: string;
  robots: string;
  author: string;
  headings: { h1: string[]; h2: string[]; h3: string[] };
  alternates: Array<{ hreflang: string; href: string }>;
}

const MAX_HEADINGS = 20;
const MAX_HEADING_LENGTH = 300;
const MAX_KEYWORDS = 50;
const MAX_ALTERNATES = 50;

/** `<meta name=…>` (or `property=…`) content, trimmed; case-insensitive on the name. */
export function metaContent($: CheerioAPI, ...names: string[]): string {
  const wanted = new Set(names.map((name) => name.toLowerCase()));
  let found = '';
  $('meta').each((_i, element) => {
    const name = ($(element).attr('name') ?? $(element).attr('property') ?? '').trim().toLowerCase();
    if (!wanted.has(name)) return true;
    const content = squash($(element).attr('content'));
    if (content === '') return true;
    found = content;
    return false;
  });
  return found;
}

function headings($: CheerioAPI, tag: 'h1' | 'h2' | 'h3'): string[] {
  const texts = $(tag)
    .map((_i, element) => clip(squash($(element).text()), MAX_HEADING_LENGTH))
    .get()
    .filter((text) => text !== '');
  return unique(texts).slice(0, MAX_HEADINGS);
}

/** The search-engine view of a page: what a result snippet and an index would use. */
export function extractSeo($: CheerioAPI, base: URL, headerLanguage: string | undefined): SeoData {
  const title = squash($('head title').first().text()) || squash($('title').first().text()) || metaContent($, 'og:title', 'twitter:title');
  const keywords = unique(
    metaContent($, 'keywords')
      .split(',')
      .map((keyword) => squash(keyword))
      .filter((keyword) => keyword !== ''),
  ).slice(0, MAX_KEYWORDS);
  const canonicalHref = $('link[rel]')
    .filter((_i, element) => /(^|\s)canonical(\s|$)/i.test($(element).attr('rel') ?? ''))
    .first()
    .attr('href');
  const language =
    squash($('html').attr('lang')) ||
    squash($('meta[http-equiv]').filter((_i, element) => ($(element).attr('http-equiv') ?? '').toLowerCase() === 'content-language').attr('content')) ||
    squash(headerLanguage?.split(',')[0]);
  const alternates: SeoData['alternates'] = [];
  $('link[rel][hreflang]').each((_i, element) => {
    if (!/(^|\s)alternate(\s|$)/i.test($(element).attr('rel') ?? '')) return;
    const href = resolveHttpUrl($(element).attr('href'), base);
    const hreflang = squash($(element).attr('hreflang'));
    if (href !== undefined && hreflang !== '' && alternates.length < MAX_ALTERNATES) alternates.push({ hreflang, href });
  });
  return {
    title: clip(title, 500),
    description: clip(metaContent($, 'description') || metaContent($, 'og:description', 'twitter:description'), 1000),
    keywords,
    canonical: resolveHttpUrl(canonicalHref, base) ?? '',
    language,
    robots: metaContent($, 'robots'),
    author: metaContent($, 'author'),
    headings: { h1: headings($, 'h1'), h2: headings($, 'h2'), h3: headings($, 'h3') },
    alternates,
  };
}
