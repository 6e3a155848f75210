/** Small string and URL helpers shared by the HTML extractors. */

/** Runs of whitespace (including non-breaking spaces) become one space; ends trimmed. */
export function squash(text: string | undefined): string {
  return (text ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
}

/** At most `max` characters, cut at a word boundary when one is near, with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** An absolute http(s) URL for `href` relative to `base`, without its fragment; undefined for anything else. */
export function resolveHttpUrl(href: string | undefined, base: URL): string | undefined {
  const raw = (href ?? '').trim();
  if (raw === '' || raw.startsWith('#')) return undefined;
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  return url.href;
}

/** First occurrences, in order. */
export function unique<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

/** `og:site_name` → `siteName`, `twitter:image:alt` → `imageAlt`. */
export function camelKey(name: string): string {
  return name
    .toLowerCase()
    .split(/[:_\-.]+/)
    .filter((part) => part !== '')
    .map((part, i) => (i === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('');
}

/** Same site when the host names match, ignoring a leading `www.`. */
export function sameSite(a: URL, b: URL): boolean {
  const host = (url: URL) => url.hostname.toLowerCase().replace(/^www\./, '');
  return host(a) === host(b);
}
