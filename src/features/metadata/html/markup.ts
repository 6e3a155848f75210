import { DomHandler, hasChildren, isText } from 'domhandler';
import type { AnyNode, Document, Element } from 'domhandler';
import { decodeBuffer } from 'encoding-sniffer';
import { Parser } from 'htmlparser2';
import type { AnalysisBudget } from './limits.js';
import { MAX_DEPTH, MAX_MARKUP_BYTES, MAX_NODES } from './limits.js';

/**
 * Markup parsing with the analysis bounds enforced while the tree is built. htmlparser2, not parse5:
 * parse5 rebuilds formatting elements (a few bytes can make thousands of nodes) and scans its stack of
 * open elements on every block tag, so both its node count and its time grow faster than the input.
 * htmlparser2 makes at most one node per token; its own stack work grows with depth, hence the depth bound.
 */

export interface ParsedMarkup {
  readonly root: Document;
  /** Elements by tag name (lower case for HTML), in document order. */
  elements(tag: string): readonly Element[];
  /** Elements of any of the tags, in document order. */
  elementsOf(...tags: string[]): readonly Element[];
  /** Elements that carry `itemtype`, `typeof`…, in document order. */
  withAttribute(name: string): readonly Element[];
}

/** Attributes indexed while parsing (structured data reads them on any element). */
const INDEXED_ATTRIBUTES = ['itemtype', 'typeof'];
/** Text handed to the parser per write; the time bound is checked between writes too. */
const CHUNK_CHARS = 64 * 1024;
const NONE: readonly Element[] = [];

/** Builds the tree through domhandler, counting nodes and depth, indexing elements as they open. */
class BoundedHandler extends DomHandler {
  readonly byTag = new Map<string, Element[]>();
  readonly byAttribute = new Map<string, Element[]>();
  private nodes = 0;
  halted = false;
  halt: () => void = () => undefined;

  constructor(private readonly budget: AnalysisBudget) {
    super(null, { withStartIndices: true, withEndIndices: false });
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    super.onopentag(name, attribs);
    const element = this.tagStack[this.tagStack.length - 1] as Element;
    const list = this.byTag.get(name);
    if (list === undefined) this.byTag.set(name, [element]);
    else list.push(element);
    for (const attribute of INDEXED_ATTRIBUTES) {
      if (attribs[attribute] === undefined) continue;
      const holders = this.byAttribute.get(attribute) ?? [];
      holders.push(element);
      this.byAttribute.set(attribute, holders);
    }
    // tagStack starts with the document itself.
    if (this.tagStack.length - 1 > MAX_DEPTH) this.stop('depth');
    else this.counted();
  }

  override ontext(data: string): void {
    super.ontext(data);
    this.counted();
  }

  override oncomment(data: string): void {
    super.oncomment(data);
    this.counted();
  }

  private counted(): void {
    this.nodes += 1;
    if (this.nodes >= MAX_NODES) this.stop('nodes');
    else if (this.budget.parseExpired()) this.stop('time');
  }

  private stop(limit: 'nodes' | 'depth' | 'time'): void {
    if (this.halted) return;
    this.halted = true;
    this.budget.hit(limit);
    this.halt();
  }
}

/** The body as text: at most MAX_MARKUP_BYTES of it, decoded by BOM, transport charset, then `<meta charset>`. */
export function decodeMarkup(body: Buffer, charset: string | undefined, budget: AnalysisBudget): string {
  if (body.length > MAX_MARKUP_BYTES) budget.hit('bytes');
  return decodeBuffer(body.subarray(0, MAX_MARKUP_BYTES), {
    transportLayerEncodingLabel: charset,
    defaultEncoding: 'utf-8',
  });
}

/** Parses HTML (or XML) within the bounds: past one of them the tree holds what was read so far. */
export function parseMarkup(text: string, budget: AnalysisBudget, options: { xml?: boolean } = {}): ParsedMarkup {
  const handler = new BoundedHandler(budget);
  const parser = new Parser(handler, { xmlMode: options.xml === true, decodeEntities: true });
  handler.halt = () => parser.pause();
  for (let offset = 0; offset < text.length && !handler.halted; offset += CHUNK_CHARS) {
    parser.write(text.slice(offset, offset + CHUNK_CHARS));
    if (!handler.halted && budget.parseExpired()) handler.halted = true;
  }
  if (!handler.halted) parser.end();
  return {
    root: handler.root,
    elements: (tag) => handler.byTag.get(tag) ?? NONE,
    // startIndex is the element's offset in the source: document order across tags.
    elementsOf: (...tags) =>
      tags.flatMap((tag) => handler.byTag.get(tag) ?? NONE).sort((a, b) => (a.startIndex ?? 0) - (b.startIndex ?? 0)),
    withAttribute: (name) => handler.byAttribute.get(name) ?? NONE,
  };
}

/** Attribute value, or undefined; cut to `max` characters so later regexes and squashing see bounded input. */
export function attr(element: Element, name: string, max = 10_000): string | undefined {
  const value = element.attribs[name];
  return value === undefined || value.length <= max ? value : value.slice(0, max);
}

/** Concatenated text under `node`, stopping once `maxChars` are collected or `maxNodes` visited. Iterative: any depth. */
export function textOf(node: AnyNode, maxChars: number, maxNodes = 20_000): string {
  let out = '';
  let visited = 0;
  const stack: Array<{ nodes: readonly AnyNode[]; next: number }> = [{ nodes: [node], next: 0 }];
  while (stack.length > 0 && out.length < maxChars && visited < maxNodes) {
    const top = stack[stack.length - 1] as { nodes: readonly AnyNode[]; next: number };
    const current = top.nodes[top.next];
    top.next += 1;
    if (current === undefined) {
      stack.pop();
      continue;
    }
    visited += 1;
    if (isText(current)) out += current.data;
    else if (hasChildren(current)) stack.push({ nodes: current.children, next: 0 });
  }
  return out.length > maxChars ? out.slice(0, maxChars) : out;
}
