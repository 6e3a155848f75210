import { hasChildren, isTag, isText } from 'domhandler';
import type { AnyNode, Element } from 'domhandler';
import type { AnalysisBudget } from './limits.js';
import { attr } from './markup.js';
import type { ParsedMarkup } from './markup.js';

const NOT_TEXT = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'head',
  'title',
  'select',
  'option',
  'math',
]);
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

/** Elements that are page furniture, not content: by tag, by ARIA role, or hidden. */
const BOILERPLATE_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'form',
  'button',
  'select',
  'dialog',
  'nav',
  'header',
  'footer',
  'aside',
]);
const BOILERPLATE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog']);
/** class/id words of navigation, ads, consent banners, share bars, comments… (one fixed word per position: linear). */
const NOISE =
  /(^|[\s_-])(cookies?|consent|gdpr|banner|advert|adverts|ads|ad|sponsor|promo|popup|modal|newsletter|subscribe|share|sharing|social|sidebar|breadcrumbs?|menu|navbar|nav|comments?|related|footer|header|skip|toolbar|widget)([\s_-]|$)/i;
const STRUCTURAL = new Set(['html', 'body', 'main', 'article']);
/** Where the content of a page usually is, best first: article, main, [role=main], #content, #main, then these classes. */
const ROOT_CLASSES = ['post-content', 'entry-content', 'article-body', 'content'];
const CONTENT_ROOTS = 5 + ROOT_CLASSES.length;
/** The first three roots hold content whatever their wrappers' class says. */
const PROTECTING_ROOTS = 3;
const MIN_ROOT_CHARS = 200;

function role(element: Element): string {
  return (attr(element, 'role', 100) ?? '').trim().toLowerCase();
}

/** Bit i set: the element matches content root i (in CONTENT_ROOTS order). */
function rootsOf(element: Element): number {
  const id = element.attribs.id;
  let roots =
    (element.name === 'article' ? 1 : 0) | (element.name === 'main' ? 2 : 0) | (role(element) === 'main' ? 4 : 0);
  roots |= (id === 'content' ? 8 : 0) | (id === 'main' ? 16 : 0);
  const classes = attr(element, 'class', 1000);
  if (classes !== undefined) {
    const tokens = new Set(classes.split(/\s+/));
    ROOT_CLASSES.forEach((name, i) => {
      if (tokens.has(name)) roots |= 1 << (5 + i);
    });
  }
  return roots;
}

function isBoilerplate(element: Element): boolean {
  return (
    BOILERPLATE_TAGS.has(element.name) ||
    BOILERPLATE_ROLES.has(role(element)) ||
    element.attribs['aria-hidden'] === 'true' ||
    element.attribs.hidden !== undefined
  );
}

function isNoise(element: Element): boolean {
  if (STRUCTURAL.has(element.name) || (element.attribs.class === undefined && element.attribs.id === undefined))
    return false;
  return NOISE.test(`${attr(element, 'class', 1000) ?? ''} ${attr(element, 'id', 1000) ?? ''}`);
}

/** Characters a reader would see in a text node, whitespace left out (ranks content roots without building their text). */
function weightOf(text: string): number {
  let weight = 0;
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 32 && text.charCodeAt(i) !== 160) weight += 1;
  return weight;
}

/**
 * Text of the nodes, one line per block element, whitespace squashed, empty lines dropped; subtrees for
 * which `skip` is true left out. One iterative pass: pages nest deeper than the call stack.
 */
function blockText(
  roots: readonly AnyNode[],
  budget: AnalysisBudget,
  skip: (element: Element) => boolean = () => false,
): string {
  const parts: string[] = [];
  // Nodes to visit, or '\n' closing a block element, in reverse order.
  const stack: Array<AnyNode | '\n'> = [...roots].reverse();
  while (stack.length > 0 && !budget.expired()) {
    const node = stack.pop() as AnyNode | '\n';
    if (node === '\n') parts.push('\n');
    else if (isText(node)) parts.push(node.data);
    else if (hasChildren(node) && !(isTag(node) && (NOT_TEXT.has(node.name) || skip(node)))) {
      const block = isTag(node) && BLOCK.has(node.name);
      if (block) {
        parts.push('\n');
        stack.push('\n');
      }
      for (let i = node.children.length - 1; i >= 0; i -= 1) stack.push(node.children[i] as AnyNode);
    }
  }
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

function bodyOf(page: ParsedMarkup): readonly AnyNode[] {
  const body = page.elements('body')[0];
  return body === undefined ? [page.root] : [body];
}

/** Everything a reader could see in the body (scripts, styles and templates left out). */
export function visibleText(page: ParsedMarkup, budget: AnalysisBudget): string {
  return blockText(bodyOf(page), budget);
}

interface Frame {
  readonly element: Element | undefined;
  next: number;
  weight: number;
  holdsRoot: boolean;
  /** Where this element's candidates start in the candidate list. */
  readonly firstCandidate: number;
  readonly order: number;
}

interface Candidate {
  readonly element: Element;
  readonly weight: number;
  readonly order: number;
  /** Bit i: matches CONTENT_ROOTS[i]. */
  readonly roots: number;
}

/**
 * One post-order pass over the body: which elements are furniture (boilerplate, or noise-classed without a
 * content root inside), and the content roots outside them with the amount of text each holds.
 */
function classify(page: ParsedMarkup, budget: AnalysisBudget): { removed: Set<Element>; candidates: Candidate[] } {
  const removed = new Set<Element>();
  const candidates: Candidate[] = [];
  const body = page.elements('body')[0];
  const top: readonly AnyNode[] = body === undefined ? page.root.children : [body];
  const stack: Frame[] = [{ element: undefined, next: 0, weight: 0, holdsRoot: false, firstCandidate: 0, order: 0 }];
  let order = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const children = frame.element === undefined ? top : frame.element.children;
    const child = budget.expired() ? undefined : children[frame.next];
    frame.next += 1;
    if (child !== undefined) {
      if (isText(child)) frame.weight += weightOf(child.data);
      else if (isTag(child) && !NOT_TEXT.has(child.name)) {
        if (isBoilerplate(child)) removed.add(child);
        else
          stack.push({
            element: child,
            next: 0,
            weight: 0,
            holdsRoot: false,
            firstCandidate: candidates.length,
            order: (order += 1),
          });
      }
      continue;
    }
    stack.pop();
    const { element } = frame;
    const parent = stack[stack.length - 1];
    if (element === undefined || parent === undefined) break;
    const roots = rootsOf(element);
    const isRoot = (roots & ((1 << PROTECTING_ROOTS) - 1)) !== 0;
    if (isNoise(element) && !frame.holdsRoot && !isRoot) {
      // Its subtree goes, content roots inside it included.
      removed.add(element);
      candidates.length = frame.firstCandidate;
      continue;
    }
    parent.weight += frame.weight;
    parent.holdsRoot ||= frame.holdsRoot || isRoot;
    if (roots !== 0) candidates.push({ element, weight: frame.weight, order: frame.order, roots });
  }
  return { removed, candidates };
}

/**
 * The main content as text: page furniture left out (navigation, headers and footers, forms, ads, consent
 * banners…), then the most specific content container that holds a real amount of text, else the whole body
 * (`visible`, the body's visible text, saves building it again when nothing was left out).
 * Linear in the page: one classifying pass, then the text of at most one container per kind of root.
 */
export function mainText(page: ParsedMarkup, budget: AnalysisBudget, visible?: string): string {
  const { removed, candidates } = classify(page, budget);
  const skip = (element: Element) => removed.has(element);
  for (let i = 0; i < CONTENT_ROOTS; i += 1) {
    let best: Candidate | undefined;
    for (const candidate of candidates) {
      if ((candidate.roots & (1 << i)) === 0) continue;
      if (
        best === undefined ||
        candidate.weight > best.weight ||
        (candidate.weight === best.weight && candidate.order < best.order)
      )
        best = candidate;
    }
    if (best === undefined) continue;
    const text = blockText([best.element], budget, skip);
    if (text.length >= MIN_ROOT_CHARS) return text;
  }
  // Nothing left out: the body's text is the visible text, already built.
  return removed.size === 0 && visible !== undefined ? visible : blockText(bodyOf(page), budget, skip);
}

/** Words of `text` (letters or digits, with inner apostrophes and hyphens). Linear: no alternatives, one class repeated. */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0;
}
