/**
 * The one way a URL from an answer becomes a link's href: http and https only. A `javascript:`, `data:` or
 * `vbscript:` URL (however written: ` JaVaScRiPt:`, `java\tscript:`) would run a script when clicked, and only the
 * CSP stands in its way. Anything else, and anything that is not an absolute URL, gets no href: show it as text.
 */
export function httpHref(value: unknown): string | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}
