/**
 * URLs a page publishes are returned only when they are http(s): a `javascript:`, `data:` or `vbscript:` URL in an
 * answer becomes a script wherever a client renders it as a link. The extractors resolve the URLs they read with
 * resolveHttpUrl (text.ts); this module covers the values returned as published (JSON-LD entities, model key facts)
 * and says, for every group, which properties hold URLs.
 */

/**
 * A property holds a URL when its name says so: `url`, `@id`, `sameAs`, `logo`, `image`…, or any name ending in
 * url, uri, link, href or src, or their plurals (`contentUrl`, `links`, `imageSrc`; `appUrlIphone` by its `Url`).
 */
const URL_NAME =
  /(url|uri|link|href|src|@id|sameas|seealso|website|homepage|logo|image|icon|thumbnail|photo|video|audio|player|playerstream|item|target|mainentityofpage|license|hasmap|coderepository)s?$/i;
const URL_PART = /Url/;

export function isUrlKey(key: string): boolean {
  return URL_NAME.test(key) || URL_PART.test(key);
}

/**
 * Whether `value` names a scheme other than http and https, read as a browser reads an href: leading and trailing
 * spaces and controls dropped, tabs and newlines removed anywhere, the scheme's case ignored (` JaVaScRiPt:`,
 * `java\tscript:`). A relative reference has no scheme of its own (it takes the page's), so it is not one.
 */
export function hasOtherScheme(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol !== 'http:' && protocol !== 'https:';
}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Removes, in place, every string of `root` held by a URL property (directly or in an array under it) that names
 * another scheme than http(s); everything else stays as published. Iterative, and bounded by `maxVisits`: false
 * when the walk stopped before the end, and the caller must then not return `root` at all.
 */
export function dropNonHttpUrls(root: unknown, maxVisits: number): boolean {
  const stack: Array<{ value: unknown; urlValued: boolean }> = [{ value: root, urlValued: false }];
  for (let visited = 0; stack.length > 0; visited += 1) {
    if (visited >= maxVisits) return false;
    const { value, urlValued } = stack.pop() as { value: unknown; urlValued: boolean };
    if (Array.isArray(value)) {
      // Compacted in one pass: splicing item by item would be quadratic on a long list.
      let kept = 0;
      for (const item of value as unknown[]) {
        if (typeof item === 'string' && urlValued && hasOtherScheme(item)) continue;
        if (typeof item === 'object' && item !== null) stack.push({ value: item, urlValued });
        value[kept] = item;
        kept += 1;
      }
      value.length = kept;
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) {
        const member = value[key];
        if (typeof member === 'string') {
          if (isUrlKey(key) && hasOtherScheme(member)) delete value[key];
        } else if (typeof member === 'object' && member !== null)
          stack.push({ value: member, urlValued: isUrlKey(key) });
      }
    }
  }
  return true;
}
