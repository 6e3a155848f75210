/**
 * Parser of the placeholder grammar used in custom templates (docs/contract.md#formats).
 *
 *   string      := ( text | placeholder )*
 *   placeholder := "{{" ws chain ws "}}"
 *   chain       := alternative ( ws "|" ws alternative )*
 *   alternative := literal | path
 *   literal     := '"' ( any character but '"' and '\' | '\' any character )* '"'
 *   path        := name ( "." name | "[" ws index ws "]" )*
 *   index       := "-"? digit{1,9}
 *   name        := one or more letters, digits, "_", "-" or "$" (any script: `{{from.名前}}`)
 *   ws          := whitespace*
 *
 * Whitespace is allowed around alternatives and inside brackets, not around dots.
 * Text outside placeholders is kept as written; a lone `{` or `}}` is plain text.
 * Pure and total: every input yields either pieces or one error with its location.
 */

export type PathSegment =
  { readonly kind: 'key'; readonly name: string } | { readonly kind: 'index'; readonly index: number };

export type Alternative =
  | { readonly kind: 'path'; readonly segments: readonly PathSegment[] }
  | { readonly kind: 'literal'; readonly value: string };

export type Piece =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'placeholder'; readonly chain: readonly Alternative[] };

export type ParsedString =
  | { readonly ok: true; readonly pieces: readonly Piece[] }
  | { readonly ok: false; readonly reason: string; readonly excerpt: string };

export function parsePlaceholders(source: string): ParsedString {
  const pieces: Piece[] = [];
  let at = 0;
  while (at < source.length) {
    const open = source.indexOf('{{', at);
    if (open < 0) break;
    if (open > at) pieces.push({ kind: 'text', text: source.slice(at, open) });
    const parsed = new Cursor(source, open + 2).placeholder();
    if (typeof parsed === 'string') return { ok: false, reason: parsed, excerpt: excerpt(source, open) };
    pieces.push({ kind: 'placeholder', chain: parsed.chain });
    at = parsed.end;
  }
  if (at < source.length) pieces.push({ kind: 'text', text: source.slice(at) });
  return { ok: true, pieces };
}

// Narrow on purpose: payload keys and header names fit it, and anything
// resembling code (`x()`, `a+b`, `a[b]`) is a parse error, not a silent miss.
// Sticky, one character class repeated: linear, and by code point (letters outside the BMP count).
const NAME = /[\p{L}\p{N}_$-]+/uy;
const MAX_INDEX_DIGITS = 9;

/** Reads one placeholder body; a method returning a string has found an error. */
class Cursor {
  constructor(
    private readonly s: string,
    private at: number,
  ) {}

  placeholder(): { chain: Alternative[]; end: number } | string {
    const chain: Alternative[] = [];
    for (;;) {
      this.skipSpace();
      if (this.at >= this.s.length) return 'unterminated placeholder';
      if (this.s.startsWith('}}', this.at) || this.peek() === '|') {
        return chain.length === 0 && this.peek() === '}' ? 'empty placeholder' : 'empty fallback';
      }
      const alternative = this.peek() === '"' ? this.literal() : this.path();
      if (typeof alternative === 'string') return alternative;
      chain.push(alternative);
      this.skipSpace();
      if (this.s.startsWith('}}', this.at)) return { chain, end: this.at + 2 };
      // `{{from.email}` and `{{from.email` are the same mistake: the placeholder never closes.
      if (this.at >= this.s.length || this.peek() === '}') return 'unterminated placeholder';
      if (this.peek() !== '|') return `unexpected character ${JSON.stringify(this.peek())}`;
      this.at += 1;
    }
  }

  private literal(): Alternative | string {
    let value = '';
    for (let i = this.at + 1; i < this.s.length; i += 1) {
      const c = this.s.charAt(i);
      if (c === '"') {
        this.at = i + 1;
        return { kind: 'literal', value };
      }
      // A backslash takes the next character as written: `\"` and `\\`.
      if (c === '\\') i += 1;
      value += this.s.charAt(i);
    }
    return 'unterminated literal';
  }

  private path(): Alternative | string {
    const first = this.name();
    if (first === '') return `unexpected character ${JSON.stringify(this.peek())}`;
    const segments: PathSegment[] = [{ kind: 'key', name: first }];
    for (;;) {
      if (this.peek() === '.') {
        this.at += 1;
        const name = this.name();
        if (name === '') return 'missing name after "."';
        segments.push({ kind: 'key', name });
      } else if (this.peek() === '[') {
        this.at += 1;
        const index = this.index();
        if (index === null) return 'bad index';
        segments.push({ kind: 'index', index });
      } else {
        return { kind: 'path', segments };
      }
    }
  }

  private name(): string {
    NAME.lastIndex = this.at;
    const name = NAME.exec(this.s)?.[0] ?? '';
    this.at += name.length;
    return name;
  }

  /** After `[`: an integer, then `]`. */
  private index(): number | null {
    this.skipSpace();
    const match = /^-?\d+/.exec(this.s.slice(this.at, this.at + MAX_INDEX_DIGITS + 2));
    const digits = match?.[0];
    if (digits === undefined || digits.replace('-', '').length > MAX_INDEX_DIGITS) return null;
    this.at += digits.length;
    this.skipSpace();
    if (this.peek() !== ']') return null;
    this.at += 1;
    // `[-0]` is the first element, like `[0]`.
    return Number(digits) || 0;
  }

  private peek(): string {
    return this.s.charAt(this.at);
  }

  private skipSpace(): void {
    while (this.at < this.s.length && /\s/.test(this.peek())) this.at += 1;
  }
}

const EXCERPT_MAX = 40;

/** The failing placeholder as the user wrote it, for the 400 message: up to its `}}`, at most 40 code points. */
function excerpt(source: string, open: number): string {
  const close = source.indexOf('}}', open + 2);
  const text = source.slice(open, close < 0 ? source.length : close + 2);
  const points = Array.from(text);
  return points.length <= EXCERPT_MAX ? text : `${points.slice(0, EXCERPT_MAX).join('')}…`;
}
