import type { CheerioAPI } from 'cheerio';
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
/** Players whose iframes are videos. */
const VIDEO_EMBED = /^https?:\/\/(www\.)?(youtube(-nocookie)?\.com\/embed\/|player\.vimeo\.com\/video\/|(www\.)?dailymotion\.com\/embed\/|fast\.wistia\.net\/embed\/|player\.twitch\.tv\/|(www\.)?loom\.com\/embed\/)/i;

function dimension(value: string | undefined): number | undefined {
  const number = Number.parseInt(value ?? '', 10);
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

/** Images (lazy-loading `data-src` included), videos, audio and icons of a page. */
export function extractMedia($: CheerioAPI, base: URL, icons: Icon[], logo: string): MediaData {
  const images = new Map<string, MediaImage>();
  let withoutAlt = 0;
  $('img').each((_i, element) => {
    const node = $(element);
    const src = resolveHttpUrl(node.attr('src') ?? node.attr('data-src') ?? node.attr('data-lazy-src') ?? node.attr('srcset')?.split(/[\s,]+/)[0], base);
    if (src === undefined || images.has(src)) return;
    const alt = squash(node.attr('alt'));
    if (node.attr('alt') === undefined) withoutAlt += 1;
    const image: MediaImage = { src, alt: clip(alt, 300) };
    const width = dimension(node.attr('width'));
    const height = dimension(node.attr('height'));
    if (width !== undefined) image.width = width;
    if (height !== undefined) image.height = height;
    images.set(src, image);
  });
  const sources = (selector: string) =>
    $(selector)
      .map((_i, element) => resolveHttpUrl($(element).attr('src'), base))
      .get()
      .filter((url): url is string => url !== undefined);
  const videos = unique([
    ...sources('video[src], video source[src]'),
    ...sources('iframe[src]').filter((url) => VIDEO_EMBED.test(url)),
  ]);
  const audio = unique(sources('audio[src], audio source[src]'));
  return {
    images: { total: images.size, withoutAlt, items: [...images.values()].slice(0, MAX_ITEMS) },
    videos: { total: videos.length, urls: videos.slice(0, MAX_ITEMS) },
    audio: { total: audio.length, urls: audio.slice(0, MAX_ITEMS) },
    icons,
    logo,
  };
}
