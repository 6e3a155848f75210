import { compile } from 'html-to-text';
import type { FormatCallback, HtmlToTextOptions, SelectorDefinition } from 'html-to-text';
import { ELLIPSIS, safeCutIndex } from './text.js';

/**
 * Plain text of an HTML mail body, for mail that has no text part: html-to-text (what mailparser
 * itself uses) with lists, links, tables and character references handled, set up for chat messages.
 *
 * The HTML is untrusted and may be megabytes, and this runs on the event loop. The parser's work grows
 * with nesting depth times size (htmlparser2 keeps its open-element stack with `unshift`), so only the
 * first MAX_HTML_CHARS are converted: 64 KiB of `<div>`s still converts in tens of milliseconds. Deeper
 * elements than MAX_DEPTH become "…"; the text is cut to MAX_TEXT_CHARS (nested-list indentation can
 * make it longer than the HTML it came from).
 */
export const MAX_HTML_CHARS = 64 * 1024;
export const MAX_TEXT_CHARS = 64 * 1024;
const MAX_DEPTH = 128;

/**
 * Tables as rows of lines, cells side by side: html-to-text's column layout (dataTable) fills a grid as
 * large as colspan × rowspan, which hostile mail sets to anything. A row ends in a line break rather than
 * being a block, so the table keeps its own empty line before it.
 */
const row: FormatCallback = (element, walk, builder) => {
  walk(element.children, builder);
  builder.addLineBreak();
};
const cell: FormatCallback = (element, walk, builder) => {
  walk(element.children, builder);
  builder.addInline(' ');
};

const skipped = ['head', 'title', 'script', 'style', 'template', 'svg', 'img'].map((selector): SelectorDefinition => ({
  selector,
  format: 'skip',
}));
const headings = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector): SelectorDefinition => ({
  selector,
  format: 'heading',
  options: { uppercase: false },
}));

const OPTIONS: HtmlToTextOptions = {
  // Chat platforms wrap lines themselves.
  wordwrap: false,
  // The whole document: mail often has no <body>, and head-like content is skipped below.
  baseElements: { selectors: [], returnDomByDefault: true },
  // A non-breaking space means nothing to a chat message; collapsing it like a plain one wraps better.
  whitespaceCharacters: ' \t\r\n\f\u200b\u00a0',
  limits: { maxInputLength: MAX_HTML_CHARS, maxDepth: MAX_DEPTH, ellipsis: ELLIPSIS },
  formatters: { row, cell },
  selectors: [
    ...skipped,
    ...headings,
    // Link text only, as the chat formats have always shown it (adapters.test.ts pins it).
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'ul', options: { itemPrefix: '- ' } },
    { selector: 'ol', format: 'unorderedList', options: { itemPrefix: '- ' } },
    { selector: 'table', format: 'block', options: { leadingLineBreaks: 2, trailingLineBreaks: 2 } },
    { selector: 'tr', format: 'row' },
    { selector: 'td', format: 'cell' },
    { selector: 'th', format: 'cell' },
  ],
};

/**
 * Compiled on first use, not at import: a process that never meets an HTML-only mail does no work for it
 * (with it compiled at import, test/integration/security/worst-inputs.test.ts saw /healthz polls over its bound).
 */
let convert: ((html: string) => string) | undefined;

export function htmlToText(html: string): string {
  convert ??= compile(OPTIONS);
  const text = convert(html.slice(0, safeCutIndex(html, MAX_HTML_CHARS)))
    // Control characters are nothing a reader can see (C0 except tab and line feed, and DEL).
    // eslint-disable-next-line no-control-regex -- exactly those characters are meant.
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    // At most one empty line between paragraphs (runs of <br> and headings ask for more).
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text.length > MAX_TEXT_CHARS ? `${text.slice(0, safeCutIndex(text, MAX_TEXT_CHARS - 1))}${ELLIPSIS}` : text;
}
