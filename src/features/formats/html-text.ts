import { decodeEntities } from './html-entities.js';

/**
 * Plain text of an HTML mail body, for mail that has no text part.
 *
 * A single left-to-right scan (no backtracking regular expressions) because the
 * input is untrusted and may be up to 1 MiB: tags are removed, the content of
 * script/style/head-like elements and comments is dropped, block elements become
 * line breaks, HTML whitespace collapses, character references are decoded.
 */

/**
 * Elements whose content is never visible text. Raw-text ones (script, style,
 * title) run to the end of the document when never closed, as in a browser; for
 * the others an unclosed tag only drops itself. `head` is absent on purpose: its
 * end tag is optional, and its visible-less children are covered here anyway.
 */
const RAW_TEXT = new Set(['script', 'style', 'title']);
const HIDDEN = new Set(['template', 'noscript', 'svg']);

/** Elements that start or end a line in a rendered page. */
const LINE = new Set([
  'address',
  'article',
  'aside',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'li',
  'main',
  'nav',
  'section',
  'tbody',
  'tfoot',
  'thead',
  'tr',
]);

/** Elements set apart by an empty line, as browsers render their margins. */
const PARAGRAPH = new Set(['blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'ol', 'p', 'pre', 'table', 'ul']);

/**
 * Break markers written during the scan and resolved afterwards, so that nested
 * blocks (`</li></ul></div>`) give one break, not one per tag. `<br>` writes a
 * real newline, which always counts.
 */
const SOFT_LINE = '\u0000';
const SOFT_PARAGRAPH = '\u0001';

const TAG_NAME = /<(\/?)([A-Za-z][A-Za-z0-9-]*)/y;

export function htmlToText(html: string): string {
  const out: string[] = [];
  const closers: Closers = new Map();
  let text = 0; // start of the text not yet written to `out`
  let lt = html.indexOf('<');
  while (lt >= 0) {
    const markup = readMarkup(html, lt, closers);
    if (markup === null) {
      // A `<` that opens no markup is text: keep scanning, write nothing yet.
      lt = html.indexOf('<', lt + 1);
      continue;
    }
    out.push(collapse(html.slice(text, lt)), markup.emit);
    text = markup.end;
    lt = html.indexOf('<', text);
  }
  out.push(collapse(html.slice(text)));
  return tidy(decodeEntities(resolveBreaks(out.join(''))));
}

interface Markup {
  /** Where text resumes. */
  end: number;
  /** What the markup renders as: a break marker, a list bullet, a cell gap or nothing. */
  emit: string;
}

/** The markup starting at `lt`, or null when that `<` is only text (`a < b`). */
function readMarkup(html: string, lt: number, closers: Closers): Markup | null {
  if (html.startsWith('<!--', lt)) return { end: after(html, '-->', lt + 4), emit: '' };
  TAG_NAME.lastIndex = lt;
  const match = TAG_NAME.exec(html);
  if (match === null) {
    // `<!DOCTYPE …>`, `<?xml …?>`: declarations, not text.
    if (html.startsWith('<!', lt) || html.startsWith('<?', lt)) return { end: after(html, '>', lt + 2), emit: '' };
    return null;
  }
  const closing = match[1] === '/';
  const name = (match[2] ?? '').toLowerCase();
  const end = tagEnd(html, lt + match[0].length);
  if (!closing && (RAW_TEXT.has(name) || HIDDEN.has(name)) && !html.slice(lt, end).endsWith('/>')) {
    const close = findCloser(html, name, end, closers);
    if (close >= 0) return { end: after(html, '>', close), emit: '' };
    return { end: RAW_TEXT.has(name) ? html.length : end, emit: '' };
  }
  return { end, emit: render(name, closing) };
}

/** Per call: element name → index of the next `</name` found, or -1 when there is none. */
type Closers = Map<string, number>;

/**
 * Index of the first `</name` at or after `from`, or -1. Remembering the last
 * answer keeps thousands of unclosed `<noscript>` from rescanning the document
 * each time: a later search only starts once the remembered closer is behind us.
 */
function findCloser(html: string, name: string, from: number, closers: Closers): number {
  const known = closers.get(name);
  if (known !== undefined && (known < 0 || known >= from)) return known;
  const pattern = new RegExp(`</${name}[\\s>/]`, 'gi');
  pattern.lastIndex = from;
  const found = pattern.exec(html)?.index ?? -1;
  closers.set(name, found);
  return found;
}

function render(name: string, closing: boolean): string {
  if (name === 'br') return '\n';
  if (name === 'li' && !closing) return `${SOFT_LINE}- `;
  if (LINE.has(name)) return SOFT_LINE;
  if (PARAGRAPH.has(name)) return SOFT_PARAGRAPH;
  if ((name === 'td' || name === 'th') && closing) return ' ';
  return '';
}

/**
 * Index just past the `>` closing a tag, skipping quoted attribute values, which
 * may contain `>` (`<a title="a>b">`). A quote opens a value only after `=`.
 */
function tagEnd(html: string, from: number): number {
  let afterEquals = false;
  for (let i = from; i < html.length; i += 1) {
    const c = html.charAt(i);
    if (c === '>') return i + 1;
    if ((c === '"' || c === "'") && afterEquals) {
      const close = html.indexOf(c, i + 1);
      if (close < 0) return html.length;
      i = close;
      afterEquals = false;
    } else if (c === '=') afterEquals = true;
    else if (!/\s/.test(c)) afterEquals = false;
  }
  return html.length;
}

/** Index just past the next `token` from `from`, or the end when it never comes. */
function after(html: string, token: string, from: number): number {
  const at = html.indexOf(token, from);
  return at < 0 ? html.length : at + token.length;
}

/** HTML source whitespace, line breaks included, renders as one space; the marker characters cannot come from the mail. */
// eslint-disable-next-line no-control-regex -- U+0000 and U+0001 are our own break markers, never from the mail.
const collapse = (text: string): string => text.replace(/[\u0000\u0001]/g, '').replace(/[ \t\n\r\f]+/g, ' ');

/** A run of breaks becomes the largest break it holds: one newline, or one empty line. */
function resolveBreaks(text: string): string {
  // Anchored on a break character at both ends so the match never backtracks
  // over long runs of spaces; spaces left around a break are trimmed by tidy().
  // eslint-disable-next-line no-control-regex -- the break markers again.
  return text.replace(/[\n\u0000\u0001](?:[ \n\u0000\u0001]*[\n\u0000\u0001])?/g, (run) => {
    const hard = run.split('\n').length - 1;
    const wanted = run.includes(SOFT_PARAGRAPH) ? 2 : 1;
    return '\n'.repeat(Math.min(2, Math.max(hard, wanted)));
  });
}

/** Trim every line and keep at most one empty line between paragraphs. */
function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
