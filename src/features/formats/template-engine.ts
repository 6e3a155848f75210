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

/**
 * The template with every placeholder filled from `data`. A string that is exactly
 * one placeholder takes the value's own JSON type; inside longer text, objects and
 * arrays are written as JSON. A chain whose every alternative is missing, null or
 * "" yields "". A string that does not parse (a template that skipped validation)
 * is kept as written rather than failing the delivery.
 */
export function renderTemplate(template: unknown, data: unknown): unknown {
  if (typeof template === 'string') return template.includes('{{') ? renderString(template, data) : template;
  if (Array.isArray(template)) return template.map((item: unknown) => renderTemplate(item, data));
  if (isPlainObject(template)) {
    // fromEntries defines properties, so a `__proto__` key stays a plain key.
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, renderTemplate(value, data)]));
  }
  return template;
}

function renderString(source: string, data: unknown): unknown {
  const parsed = parsePlaceholders(source);
  if (!parsed.ok) return source;
  const [only, ...rest] = parsed.pieces;
  if (only?.kind === 'placeholder' && rest.length === 0) return copyJson(resolveChain(only.chain, data) ?? '');
  return parsed.pieces.map((piece: Piece) => (piece.kind === 'text' ? piece.text : inline(resolveChain(piece.chain, data)))).join('');
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
  return String(value);
}

/** A filled-in object must not alias the payload it came from. */
const copyJson = (value: unknown): unknown =>
  typeof value === 'object' && value !== null ? (JSON.parse(JSON.stringify(value)) as unknown) : value;

const isJsonValue = (value: unknown): boolean => typeof value !== 'function' && typeof value !== 'symbol' && typeof value !== 'bigint';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
