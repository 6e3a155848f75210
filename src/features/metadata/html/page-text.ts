import type { CheerioAPI } from 'cheerio';

/** The part of domhandler's node shape the walker reads (cheerio does not re-export those types). */
interface DomNode {
  type: string;
  name?: string;
  data?: string;
  children?: DomNode[];
}

const NOT_TEXT = new Set(['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed', 'head', 'title', 'select', 'option', 'math']);
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure',
  'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
]);

/** Elements that are page furniture, not content. */
const BOILERPLATE = [
  'script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed', 'form', 'button', 'select', 'dialog', 'nav', 'header', 'footer', 'aside',
  '[role=navigation]', '[role=banner]', '[role=contentinfo]', '[role=complementary]', '[role=search]', '[role=dialog]', '[aria-hidden=true]', '[hidden]',
].join(',');
/** class/id words of navigation, ads, consent banners, share bars, comments… */
const NOISE = /(^|[\s_-])(cookies?|consent|gdpr|banner|advert|adverts|ads|ad|sponsor|promo|popup|modal|newsletter|subscribe|share|sharing|social|sidebar|breadcrumbs?|menu|navbar|nav|comments?|related|footer|header|skip|toolbar|widget)([\s_-]|$)/i;
const STRUCTURAL = new Set(['html', 'body', 'main', 'article']);
/** Where the content of a page usually is, best first. */
const CONTENT_ROOTS = ['article', 'main', '[role=main]', '#content', '#main', '.post-content', '.entry-content', '.article-body', '.content'];
const MIN_ROOT_CHARS = 200;

function walk(node: DomNode, out: string[]): void {
  if (node.type === 'text') {
    out.push(node.data ?? '');
    return;
  }
  if (node.type !== 'tag' && node.type !== 'root') return;
  const name = node.name?.toLowerCase() ?? '';
  if (NOT_TEXT.has(name)) return;
  const block = BLOCK.has(name);
  if (block) out.push('\n');
  for (const child of node.children ?? []) walk(child, out);
  if (block) out.push('\n');
}

/** Text of the nodes, one line per block element, whitespace squashed, empty lines dropped. */
function blockText(nodes: readonly DomNode[]): string {
  const parts: string[] = [];
  for (const node of nodes) walk(node, parts);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** Everything a reader could see in the body (scripts, styles and templates left out). Does not change the document. */
export function visibleText($: CheerioAPI): string {
  const body = $('body');
  const nodes = (body.length > 0 ? body.get() : $.root().get()) as unknown as DomNode[];
  return blockText(nodes);
}

/**
 * The main content as text: page furniture removed (navigation, headers and footers, forms, ads, consent banners…),
 * then the most specific content container that holds a real amount of text. Changes the document: call it last.
 */
export function mainText($: CheerioAPI): string {
  $(BOILERPLATE).remove();
  $('[class], [id]').each((_i, element) => {
    const node = $(element);
    if (STRUCTURAL.has(element.tagName.toLowerCase())) return;
    const words = `${node.attr('class') ?? ''} ${node.attr('id') ?? ''}`;
    if (!NOISE.test(words)) return;
    // A wrapper that holds the content itself is not noise, whatever its class says.
    if (node.find(CONTENT_ROOTS.slice(0, 3).join(',')).length > 0) return;
    node.remove();
  });
  for (const selector of CONTENT_ROOTS) {
    const best = $(selector)
      .get()
      .map((element) => blockText([element as unknown as DomNode]))
      .sort((a, b) => b.length - a.length)[0];
    if (best !== undefined && best.length >= MIN_ROOT_CHARS) return best;
  }
  return visibleText($);
}

export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0;
}
