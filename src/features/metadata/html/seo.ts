import type { Element } from 'domhandler';
import { attr, textOf } from './markup.js';
import type { ParsedMarkup } from './markup.js';
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
/** Headings read per level: nested headings would otherwise read the same subtree again and again. */
const MAX_HEADINGS_READ = 200;
const MAX_KEYWORDS = 50;
const MAX_ALTERNATES = 50;
const MAX_TITLE = 500;

/** `<meta name=…>` (or `property=…`) content, trimmed; case-insensitive on the name. */
export function metaContent(page: ParsedMarkup, ...names: string[]): string {
  const wanted = new Set(names.map((name) => name.toLowerCase()));
  for (const element of page.elements('meta')) {
    const name = (attr(element, 'name', 200) ?? attr(element, 'property', 200) ?? '').trim().toLowerCase();
    if (!wanted.has(name)) continue;
    const content = squash(attr(element, 'content'));
    if (content !== '') return content;
  }
  return '';
}

/** Whether the space-separated `rel` list holds `token`. */
export function hasRel(element: Element, token: string): boolean {
  return (attr(element, 'rel', 1000) ?? '').toLowerCase().split(/\s+/).includes(token);
}

function headings(page: ParsedMarkup, tag: 'h1' | 'h2' | 'h3'): string[] {
  const texts = page
    .elements(tag)
    .slice(0, MAX_HEADINGS_READ)
    .map((element) => clip(squash(textOf(element, MAX_HEADING_LENGTH * 4)), MAX_HEADING_LENGTH))
    .filter((text) => text !== '');
  return unique(texts).slice(0, MAX_HEADINGS);
}

function titleText(page: ParsedMarkup): string {
  const titles = page.elements('title');
  const inHead = titles.find(
    (element) => element.parent !== null && 'name' in element.parent && element.parent.name === 'head',
  );
  return (
    [inHead, titles[0]]
      .map((element) => (element === undefined ? '' : squash(textOf(element, MAX_TITLE * 4))))
      .find((text) => text !== '') ?? ''
  );
}

/** The search-engine view of a page: what a result snippet and an index would use. */
export function extractSeo(page: ParsedMarkup, base: URL, headerLanguage: string | undefined): SeoData {
  const title = titleText(page) || metaContent(page, 'og:title', 'twitter:title');
  const keywords = unique(
    metaContent(page, 'keywords')
      .split(',')
      .map((keyword) => squash(keyword))
      .filter((keyword) => keyword !== ''),
  ).slice(0, MAX_KEYWORDS);
  const canonical = page.elements('link').find((element) => hasRel(element, 'canonical'));
  const languageMeta = page
    .elements('meta')
    .find((element) => (attr(element, 'http-equiv', 100) ?? '').toLowerCase() === 'content-language');
  const html = page.elements('html')[0];
  const language =
    squash(html === undefined ? undefined : attr(html, 'lang', 100)) ||
    squash(languageMeta === undefined ? undefined : attr(languageMeta, 'content', 100)) ||
    squash(headerLanguage?.slice(0, 200).split(',')[0]);
  const alternates: SeoData['alternates'] = [];
  for (const element of page.elements('link')) {
    if (alternates.length >= MAX_ALTERNATES) break;
    if (attr(element, 'hreflang') === undefined || !hasRel(element, 'alternate')) continue;
    const href = resolveHttpUrl(attr(element, 'href'), base);
    const hreflang = squash(attr(element, 'hreflang', 100));
    if (href !== undefined && hreflang !== '') alternates.push({ hreflang, href });
  }
  return {
    title: clip(title, MAX_TITLE),
    description: clip(
      metaContent(page, 'description') || metaContent(page, 'og:description', 'twitter:description'),
      1000,
    ),
    keywords,
    canonical: resolveHttpUrl(canonical === undefined ? undefined : attr(canonical, 'href'), base) ?? '',
    language,
    robots: metaContent(page, 'robots'),
    author: metaContent(page, 'author'),
    headings: { h1: headings(page, 'h1'), h2: headings(page, 'h2'), h3: headings(page, 'h3') },
    alternates,
  };
}
