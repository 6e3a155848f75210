import { attr } from './markup.js';
import type { ParsedMarkup } from './markup.js';
import { camelKey, clip, resolveHttpUrl, squash } from './text.js';
import { isUrlKey } from './url-fields.js';

export interface OgImage {
  url: string;
  width?: number;
  height?: number;
  alt?: string;
  type?: string;
}

/** `og:*` properties by camel-cased name (`og:site_name` → `siteName`); `image` is the first of `images`. */
export type OpenGraph = Record<string, string | OgImage[]>;
/** `twitter:*` properties by camel-cased name (`twitter:image:alt` → `imageAlt`). */
export type TwitterCard = Record<string, string>;

const MAX_VALUE = 1000;
const MAX_IMAGES = 10;
const MAX_ICONS = 20;

/** Meta tags whose name or property starts with `prefix`, in document order. */
function prefixedMeta(page: ParsedMarkup, prefix: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const element of page.elements('meta')) {
    if (element.attribs.content === undefined) continue;
    const name = (attr(element, 'property', 200) ?? attr(element, 'name', 200) ?? '').trim().toLowerCase();
    if (!name.startsWith(prefix)) continue;
    const content = squash(attr(element, 'content'));
    if (content !== '') out.push([name.slice(prefix.length), content]);
  }
  return out;
}

function positiveInt(text: string): number | undefined {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** A URL property's value resolved, and dropped unless http(s) (url-fields.ts); any other value as text. */
function propertyValue(key: string, content: string, base: URL): string | undefined {
  return isUrlKey(key) ? resolveHttpUrl(content, base) : clip(content, MAX_VALUE);
}

export function extractOpenGraph(page: ParsedMarkup, base: URL): OpenGraph {
  const og: OpenGraph = {};
  const images: OgImage[] = [];
  for (const [name, content] of prefixedMeta(page, 'og:')) {
    // og:image starts a new image; og:image:* describe the latest one (the Open Graph "array" rule).
    if (name === 'image' || name === 'image:url') {
      const url = resolveHttpUrl(content, base);
      if (url !== undefined && images.length < MAX_IMAGES && !images.some((image) => image.url === url))
        images.push({ url });
      continue;
    }
    const current = images[images.length - 1];
    if (name.startsWith('image:') && current !== undefined) {
      const field = name.slice('image:'.length);
      if (field === 'width' || field === 'height') current[field] = positiveInt(content);
      else if (field === 'alt') current.alt = clip(content, MAX_VALUE);
      else if (field === 'type') current.type = content;
      else if (field === 'secure_url' && current.url.startsWith('http:'))
        current.url = resolveHttpUrl(content, base) ?? current.url;
      continue;
    }
    const key = camelKey(name);
    if (key === '' || og[key] !== undefined) continue;
    const value = propertyValue(key, content, base);
    if (value !== undefined) og[key] = value;
  }
  if (images[0] !== undefined) {
    og.image = images[0].url;
    og.images = images;
  }
  return og;
}

export function extractTwitterCard(page: ParsedMarkup, base: URL): TwitterCard {
  const card: TwitterCard = {};
  for (const [name, content] of prefixedMeta(page, 'twitter:')) {
    const key = camelKey(name === 'image:src' ? 'image' : name);
    if (key === '' || card[key] !== undefined) continue;
    const value = propertyValue(key, content, base);
    if (value !== undefined) card[key] = value;
  }
  return card;
}

/** Profile URL patterns by network; the first matching link wins. Share buttons and intents are not profiles. */
const NETWORKS: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'x',
    /^https?:\/\/(www\.|mobile\.)?(twitter|x)\.com\/(?!intent\/|share|home|search|hashtag\/|i\/)[A-Za-z0-9_]{1,15}\/?$/i,
  ],
  ['linkedin', /^https?:\/\/([a-z]{2,3}\.)?linkedin\.com\/(company|in|school|showcase)\/[^/?#]+/i],
  ['facebook', /^https?:\/\/(www\.|m\.)?(facebook|fb)\.com\/(?!sharer|share|dialog\/|plugins\/|login)[^?#]+/i],
  ['instagram', /^https?:\/\/(www\.)?instagram\.com\/(?!p\/|reel\/|explore\/)[A-Za-z0-9_.]+\/?$/i],
  ['youtube', /^https?:\/\/(www\.)?youtube\.com\/(channel\/|c\/|user\/|@)[^/?#]+/i],
  ['github', /^https?:\/\/(www\.)?github\.com\/[A-Za-z0-9-]+\/?$/i],
  ['tiktok', /^https?:\/\/(www\.)?tiktok\.com\/@[^/?#]+/i],
  ['pinterest', /^https?:\/\/([a-z]{2}\.|www\.)?pinterest\.[a-z.]+\/(?!pin\/)[A-Za-z0-9_]+\/?$/i],
  ['threads', /^https?:\/\/(www\.)?threads\.(net|com)\/@[^/?#]+/i],
  ['bluesky', /^https?:\/\/bsky\.app\/profile\/[^/?#]+/i],
  ['mastodon', /^https?:\/\/(?!(www\.)?(tiktok|threads|youtube|medium|x|twitter)\.)[^/]+\/@[A-Za-z0-9_]+\/?$/i],
  ['telegram', /^https?:\/\/(t\.me|telegram\.me)\/[A-Za-z0-9_]{4,}\/?$/i],
  ['discord', /^https?:\/\/(www\.)?(discord\.gg|discord\.com\/invite)\/[^/?#]+/i],
  ['reddit', /^https?:\/\/(www\.)?reddit\.com\/(r|user|u)\/[^/?#]+/i],
];

/** Social profiles by network (`x`, `linkedin`, …) from the page's links and JSON-LD `sameAs`. */
export function extractProfiles(candidates: readonly string[]): Record<string, string> {
  const profiles: Record<string, string> = {};
  for (const url of candidates) {
    const match = NETWORKS.find(([network, pattern]) => profiles[network] === undefined && pattern.test(url));
    if (match !== undefined) profiles[match[0]] = url;
  }
  return profiles;
}

export interface Icon {
  rel: string;
  href: string;
  sizes?: string;
  type?: string;
}

/** Icons declared with `<link rel=…icon…>` (and the manifest), resolved. */
export function extractIcons(page: ParsedMarkup, base: URL): Icon[] {
  const icons: Icon[] = [];
  for (const element of page.elements('link')) {
    if (icons.length >= MAX_ICONS) break;
    if (element.attribs.rel === undefined || element.attribs.href === undefined) continue;
    const rel = squash(attr(element, 'rel', 1000)).toLowerCase();
    if (!/(^|\s)(icon|apple-touch-icon|apple-touch-icon-precomposed|mask-icon|manifest)(\s|$)/.test(rel)) continue;
    const href = resolveHttpUrl(attr(element, 'href'), base);
    if (href === undefined) continue;
    const icon: Icon = { rel, href };
    const sizes = squash(attr(element, 'sizes', 1000));
    const type = squash(attr(element, 'type', 1000));
    if (sizes !== '') icon.sizes = sizes;
    if (type !== '') icon.type = type;
    icons.push(icon);
  }
  return icons;
}

/** The declared favicon, or `/favicon.ico` of the page's origin, which browsers ask for when none is declared. */
export function faviconOf(icons: readonly Icon[], page: URL): string {
  const declared =
    icons.find((icon) => /(^|\s)icon(\s|$)/.test(icon.rel)) ?? icons.find((icon) => icon.rel.includes('icon'));
  return declared?.href ?? new URL('/favicon.ico', page.origin).href;
}
