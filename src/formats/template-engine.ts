import { fitJsonString, jsonBytes, jsonStringBytes } from './json-size.js';
import { parsePlaceholders, type Alternative, type PathSegment, type Piece } from './template-parser.js';

/**
 * Custom templates: a JSON object whose string values may hold `{{…}}` placeholders
 * (grammar in template-parser.ts). Only string values are filled; object keys are
 * copied as written. Nothing is ever evaluated: a placeholder can only read data.
 */

export const TEMPLATE_MAX_BYTES = 2048;

/**
 * Nesting levels: the top-level object is level 1 and every object or array value
 * inside a container sits one level deeper than that container. Strings, numbers,
 * booleans and null add no level. `{"a":{"b":[{"c":1}]}}` has 4 levels.
 */
export const TEMPLATE_MAX_DEPTH = 5;

/** Short message for a 400 body, or null when the template may be saved. */
export function validateTemplate(template: unknown): string | null {
  if (!isPlainObject(template)) return 'Invalid template: must be a JSON object';
  let json: string;
  try {
    json = JSON.stringify(template);
  } catch {
    return 'Invalid template: must be JSON';
  }
  // Size first: it bounds the recursion of checkNode whatever the input.
  if (Buffer.byteLength(json, 'utf8') > TEMPLATE_MAX_BYTES) {
    return `Invalid template: must be at most ${TEMPLATE_MAX_BYTES} bytes`;
  }
  return checkNode(template, 1);
}

function checkNode(node: unknown, level: number): string | null {
  if (typeof node === 'string') {
    const parsed = parsePlaceholders(node);
    return parsed.ok ? null : `Invalid template: ${parsed.reason} at ${JSON.stringify(parsed.excerpt)}`;
  }
  if (node === null || typeof node === 'boolean' || (typeof node === 'number' && Number.isFinite(node))) return null;
  if (!Array.isArray(node) && !isPlainObject(node)) return 'Invalid template: values must be JSON';
  if (level > TEMPLATE_MAX_DEPTH) return `Invalid template: nesting deeper than ${TEMPLATE_MAX_DEPTH} levels`;
  for (const child of Object.values(node)) {
    const error = checkNode(child, level + 1);
    if (error !== null) return error;
  }
  return null;
}

/** Largest rendered template, in UTF-8 bytes of its JSON: the 1 MiB payload rule (docs/contract.md#inbound-e-mail). */
export const RENDER_MAX_BYTES = 1024 * 1024;

/** Even the template's own text is over the byte budget: nothing can be rendered. */
export class TemplateTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the template cannot be rendered within ${maxBytes} bytes`);
    this.name = 'TemplateTooLarge';
  }
}

export interface RenderOptions {
  /** Budget for the rendered template's JSON, UTF-8 bytes (default RENDER_MAX_BYTES). */
  readonly maxBytes?: number;
  /** The data to render from instead once values must be cut (the mail adapter sets `truncated`). */
  readonly whenCut?: (data: unknown) => unknown;
}

export interface Rendered {
  readonly value: unknown;
  /** True when placeholder values were cut so that the whole fits the budget. */
  readonly cut: boolean;
}

/**
 * The template with every placeholder filled from `data`. A string that is exactly
 * one placeholder takes the value's own JSON type; inside longer text, objects and
 * arrays are written as JSON. A chain whose every alternative is missing, null or
 * "" yields "". A string that does not parse (a template that skipped validation)
 * is kept as written rather than failing the delivery.
 *
 * The output never exceeds the byte budget: sizes are counted before anything is
 * built, and when the values do not fit, each placeholder gets an equal share of
 * the room the template's own text leaves (a value smaller than its share keeps it
 * all, and what it leaves goes to the others). A value over its share is cut: text
 * to its longest prefix that fits, ending in "…"; an array or object (a whole-string
 * placeholder) loses entries from its end. Linear in the template and the data.
 * Throws TemplateTooLarge when the template's own text is over the budget.
 */
export function renderTemplate(template: unknown, data: unknown, options: RenderOptions = {}): unknown {
  return renderTemplateWithin(template, data, options).value;
}

export function renderTemplateWithin(template: unknown, data: unknown, options: RenderOptions = {}): Rendered {
  const maxBytes = options.maxBytes ?? RENDER_MAX_BYTES;
  let plan = planRender(template, data);
  if (plan.fixed + plan.slotBytes <= maxBytes) return { value: build(plan.root, null), cut: false };
  if (options.whenCut !== undefined) plan = planRender(template, options.whenCut(data));
  const room = maxBytes - plan.fixed;
  if (room < 0) throw new TemplateTooLarge(maxBytes);
  return { value: build(plan.root, new Cutter(fairShare(plan.slots, room))), cut: true };
}

/** A placeholder occurrence: its value and what it adds to the output's JSON. */
interface Slot {
  readonly value: unknown;
  /** Inside longer text: the value as text, made once per distinct value. */
  readonly text?: string;
  readonly bytes: number;
}

type Node =
  | { readonly kind: 'as-is'; readonly value: unknown }
  | { readonly kind: 'array'; readonly items: readonly Node[] }
  | { readonly kind: 'object'; readonly entries: ReadonlyArray<readonly [string, Node]> }
  /** A string that is exactly one placeholder: the value keeps its JSON type. */
  | { readonly kind: 'whole'; readonly slot: Slot }
  /** Text with placeholders inside: values are written as text. */
  | { readonly kind: 'text'; readonly parts: ReadonlyArray<string | Slot> };

interface Plan {
  readonly root: Node;
  readonly slots: readonly Slot[];
  /** JSON bytes of everything but the placeholder values. */
  readonly fixed: number;
  readonly slotBytes: number;
}

/** Resolves every placeholder and counts the output's JSON size, building nothing large. */
function planRender(template: unknown, data: unknown): Plan {
  const sizes = new Sizes();
  const slots: Slot[] = [];
  let fixed = 0;
  const slot = (chain: readonly Alternative[], inText: boolean): Slot => {
    const value = resolveChain(chain, data) ?? '';
    const made: Slot = inText
      ? { value, text: sizes.text(value), bytes: sizes.textBytes(value) }
      : { value, bytes: sizes.json(value) };
    slots.push(made);
    return made;
  };
  const visit = (node: unknown): Node => {
    const parsed = typeof node === 'string' && node.includes('{{') ? parsePlaceholders(node) : undefined;
    if (parsed?.ok === true) {
      const [only, ...rest] = parsed.pieces;
      if (only?.kind === 'placeholder' && rest.length === 0) return { kind: 'whole', slot: slot(only.chain, false) };
      fixed += 2;
      const parts = parsed.pieces.map((piece: Piece) => {
        if (piece.kind === 'placeholder') return slot(piece.chain, true);
        fixed += jsonStringBytes(piece.text) - 2;
        return piece.text;
      });
      return { kind: 'text', parts };
    }
    if (Array.isArray(node)) {
      fixed += 1 + Math.max(1, node.length); // brackets and commas
      return { kind: 'array', items: node.map(visit) };
    }
    if (isPlainObject(node)) {
      const entries = Object.entries(node);
      fixed += 1 + Math.max(1, entries.length);
      return {
        kind: 'object',
        entries: entries.map(([key, value]) => {
          fixed += jsonStringBytes(key) + 1;
          return [key, visit(value)] as const;
        }),
      };
    }
    fixed += jsonBytes(node);
    return { kind: 'as-is', value: node };
  };
  const root = visit(template);
  return { root, slots, fixed, slotBytes: slots.reduce((sum, s) => sum + s.bytes, 0) };
}

/** The largest per-slot cap under which the slots' total fits `room` (max-min fairness). */
function fairShare(slots: readonly Slot[], room: number): number {
  const sizes = slots.map((s) => s.bytes).sort((a, b) => a - b);
  let left = room;
  for (let i = 0; i < sizes.length; i += 1) {
    const share = Math.floor(left / (sizes.length - i));
    const size = sizes[i] ?? 0;
    if (size > share) return share;
    left -= size;
  }
  return room;
}

function build(node: Node, cutter: Cutter | null): unknown {
  switch (node.kind) {
    case 'as-is':
      return node.value;
    case 'array':
      return node.items.map((item) => build(item, cutter));
    case 'object':
      // fromEntries defines properties, so a `__proto__` key stays a plain key.
      return Object.fromEntries(node.entries.map(([key, value]) => [key, build(value, cutter)]));
    case 'whole':
      return cutter === null || node.slot.bytes <= cutter.cap
        ? copyJson(node.slot.value)
        : cutter.whole(node.slot.value);
    case 'text':
      return node.parts
        .map((part) => {
          if (typeof part === 'string') return part;
          const text = part.text ?? '';
          return cutter === null || part.bytes <= cutter.cap ? text : cutter.text(text);
        })
        .join('');
  }
}

const ELLIPSIS = '…';
const ELLIPSIS_BYTES = 3;

/** Cuts values to `cap` bytes each; a value used many times is cut once. */
class Cutter {
  private readonly texts = new Map<string, string>();
  private readonly wholes = new Map<unknown, unknown>();

  constructor(readonly cap: number) {}

  /** Text whose JSON-escaped bytes (quotes aside) fit the cap. */
  text(value: string): string {
    let cut = this.texts.get(value);
    if (cut === undefined) {
      // fitJsonString counts the two quotes, hence the + 2.
      cut = this.cap < ELLIPSIS_BYTES ? '' : fitJsonString(value, this.cap - ELLIPSIS_BYTES + 2) + ELLIPSIS;
      this.texts.set(value, cut);
    }
    return cut;
  }

  whole(value: unknown): unknown {
    if (!this.wholes.has(value)) this.wholes.set(value, this.cutWhole(value));
    return copyJson(this.wholes.get(value));
  }

  private cutWhole(value: unknown): unknown {
    if (typeof value === 'string')
      return this.cap < 2 + ELLIPSIS_BYTES ? '' : fitJsonString(value, this.cap - ELLIPSIS_BYTES) + ELLIPSIS;
    if (Array.isArray(value)) {
      const texts = value.map((item: unknown) => JSON.stringify(item) ?? 'null');
      return value.slice(0, leadingThatFit(texts, this.cap));
    }
    if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => {
        const text = JSON.stringify(item);
        return text === undefined ? [] : [{ key, item, text: `${JSON.stringify(key)}:${text}` }];
      });
      const kept = entries.slice(
        0,
        leadingThatFit(
          entries.map((entry) => entry.text),
          this.cap,
        ),
      );
      return Object.fromEntries(kept.map((entry) => [entry.key, entry.item]));
    }
    return value; // a number or boolean is never larger than a share
  }
}

/** How many leading entries of a container fit `cap` bytes, brackets and commas counted. */
function leadingThatFit(texts: readonly string[], cap: number): number {
  let bytes = 2;
  let kept = 0;
  for (const text of texts) {
    bytes += Buffer.byteLength(text, 'utf8') + (kept > 0 ? 1 : 0);
    if (bytes > cap) break;
    kept += 1;
  }
  return kept;
}

/** JSON sizes of values, each distinct value measured once per render. */
class Sizes {
  private readonly asJson = new Map<unknown, number>();
  private readonly asText = new Map<unknown, string>();
  private readonly asTextBytes = new Map<unknown, number>();

  /** Bytes of the value as a JSON value of its own. */
  json(value: unknown): number {
    let bytes = this.asJson.get(value);
    if (bytes === undefined) {
      bytes = typeof value === 'string' ? jsonStringBytes(value) : jsonBytes(value);
      this.asJson.set(value, bytes);
    }
    return bytes;
  }

  /** The value written as text (objects as JSON). */
  text(value: unknown): string {
    let text = this.asText.get(value);
    if (text === undefined) {
      text = inline(value);
      this.asText.set(value, text);
    }
    return text;
  }

  /** Bytes the value adds inside a JSON string, quotes aside. */
  textBytes(value: unknown): number {
    let bytes = this.asTextBytes.get(value);
    if (bytes === undefined) {
      bytes = jsonStringBytes(this.text(value)) - 2;
      this.asTextBytes.set(value, bytes);
    }
    return bytes;
  }
}

/** First alternative that is neither missing, null nor ""; undefined when none is. */
function resolveChain(chain: readonly Alternative[], data: unknown): unknown {
  for (const alternative of chain) {
    const value = alternative.kind === 'literal' ? alternative.value : resolvePath(alternative.segments, data);
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

/** Names that would reach an object's prototype machinery instead of its data. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function resolvePath(segments: readonly PathSegment[], data: unknown): unknown {
  let value = data;
  for (const segment of segments) {
    value = step(value, segment);
    if (value === undefined) return undefined;
  }
  return isJsonValue(value) ? value : undefined;
}

function step(value: unknown, segment: PathSegment): unknown {
  if (segment.kind === 'index') {
    if (!Array.isArray(value)) return undefined;
    const at = segment.index < 0 ? value.length + segment.index : segment.index;
    return at >= 0 && at < value.length ? (value[at] as unknown) : undefined;
  }
  if (FORBIDDEN_KEYS.has(segment.name) || typeof value !== 'object' || value === null) return undefined;
  // Own properties only: inherited ones (toString, hasOwnProperty…) are not data.
  return Object.hasOwn(value, segment.name) ? (value as Record<string, unknown>)[segment.name] : undefined;
}

function inline(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as number | boolean);
}

/** A filled-in object must not alias the payload it came from. */
const copyJson = (value: unknown): unknown =>
  typeof value === 'object' && value !== null ? (JSON.parse(JSON.stringify(value)) as unknown) : value;

const isJsonValue = (value: unknown): boolean =>
  typeof value !== 'function' && typeof value !== 'symbol' && typeof value !== 'bigint';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
