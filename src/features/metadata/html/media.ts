import type { Element } from 'domhandler';
import { attr } from './markup.js';
import type { ParsedMarkup } from './markup.js';
import { clip, resolveHttpUrl, squash, unique } from './text.js';
import type { Icon } from './social.js';

export interface MediaImage {
  src: string;
  alt: string;
  width?: number;
  height?: number;
}

export interface MediaData {
  images: { total: number; withoutAlt: number; items: MediaImage[] };
  videos: { total: number; urls: string[] };
  audio: { total: number; urls: string[] };
  icons: Icon[];
  /** Logo from JSON-LD or `og:logo`, or `''`. */
  logo: string;
}

const MAX_ITEMS = 50;
const VIDEO_PLAYERS: ReadonlySet<string> = new Set(['video']);
const AUDIO_PLAYERS: ReadonlySet<string> = new Set(['audio']);
/** Players whose iframes are videos. */
const VIDEO_EMBED =
  /^https?:\/\/(www\.)?(youtube(-nocookie)?\.com\/embed\/|player\.vimeo\.com\/video\/|(www\.)?dailymotion\.com\/embed\/|fast\.wistia\.net\/embed\/|player\.twitch\.tv\/|(www\.)?loom\.com\/embed\/)/i;

function dimension(value: string | undefined): number | undefined {
  const number = Number.parseInt(value ?? '', 10);
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

/** The first URL of a `srcset` list, read without splitting the whole (possibly huge) attribute. */
function firstCandidate(srcset: string | undefined): string | undefined {
  if (srcset === undefined) return undefined;
  const start = srcset.search(/[^\s,]/);
  if (start === -1) return undefined;
  const end = srcset.slice(start).search(/[\s,]/);
  return end === -1 ? srcset.slice(start) : srcset.slice(start, start + end);
}

/** `<source>` is a child of its player (the HTML content model); a descendant walk would repeat per nesting level. */
function isSourceOf(element: Element, players: ReadonlySet<string>): boolean {
  return (
    element.name !== 'source' ||
    (element.parent !== null && 'name' in element.parent && players.has(element.parent.name))
  );
}

/** Images (lazy-loading `data-src` included), videos, audio and icons of a page. */
export function extractMedia(page: ParsedMarkup, base: URL, icons: Icon[], logo: string): MediaData {
  const images = new Map<string, MediaImage>();
  let withoutAlt = 0;
  for (const element of page.elements('img')) {
    const src = resolveHttpUrl(
      attr(element, 'src') ??
        attr(element, 'data-src') ??
        attr(element, 'data-lazy-src') ??
        firstCandidate(attr(element, 'srcset')),
      base,
    );
    if (src === undefined || images.has(src)) continue;
    const alt = squash(attr(element, 'alt'));
    if (element.attribs.alt === undefined) withoutAlt += 1;
    const image: MediaImage = { src, alt: clip(alt, 300) };
    const width = dimension(attr(element, 'width', 100));
    const height = dimension(attr(element, 'height', 100));
    if (width !== undefined) image.width = width;
    if (height !== undefined) image.height = height;
    images.set(src, image);
  }
  const sources = (elements: readonly Element[], players: ReadonlySet<string>) =>
    elements
      .filter((element) => isSourceOf(element, players))
      .map((element) => resolveHttpUrl(attr(element, 'src'), base))
      .filter((url): url is string => url !== undefined);
  const videos = unique([
    ...sources(page.elementsOf('video', 'source'), VIDEO_PLAYERS),
    ...sources(page.elements('iframe'), VIDEO_PLAYERS).filter((url) => VIDEO_EMBED.test(url)),
  ]);
  const audio = unique(sources(page.elementsOf('audio', 'source'), AUDIO_PLAYERS));
  return {
    images: { total: images.size, withoutAlt, items: [...images.values()].slice(0, MAX_ITEMS) },
    videos: { total: videos.length, urls: videos.slice(0, MAX_ITEMS) },
    audio: { total: audio.length, urls: audio.slice(0, MAX_ITEMS) },
    icons,
    logo,
  };
}
