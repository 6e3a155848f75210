import type { ColumnForm, ColumnType } from '../store.js';

/** PostgreSQL's array type for each column type (bytes: storedText's UTF-8 bytes). */
const ARRAY_TYPES: Readonly<Record<ColumnType, string>> = {
  bigint: 'bigint[]',
  int: 'int[]',
  text: 'text[]',
  bytes: 'bytea[]',
};

/** `unnest($first::type[], …)`: the rows of column arrays bound from parameter `first` on, one array per column. */
export function unnestRows(types: readonly ColumnType[], first = 1): string {
  return `unnest(${types.map((type, i) => `$${first + i}::${ARRAY_TYPES[type]}`).join(', ')})`;
}

/** The characters an element in double quotes must escape with a backslash. */
const QUOTED_SPECIAL = /["\\]/;
const QUOTED_SPECIALS = /["\\]/g;

/** One element in double quotes (so an empty string, the word NULL, commas and braces stay text), or NULL. */
function quotedElement(value: string | number | bigint | null | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  const text = String(value);
  return `"${QUOTED_SPECIAL.test(text) ? text.replace(QUOTED_SPECIALS, '\\$&') : text}"`;
}

const isPlainText = (value: unknown): boolean => typeof value === 'string' && !QUOTED_SPECIAL.test(value);
const isScalar = (value: unknown): value is string | number | bigint | null | undefined =>
  value === null || value === undefined || ['string', 'number', 'bigint'].includes(typeof value);

/**
 * A column array as PostgreSQL's array literal, made in one join where it can be: pg makes it element by element
 * (a string or two per element and one per comma), which was a fifth of what a `GET /kv` allocated on PostgreSQL,
 * the call log's batches and the paid reads' keys (bench/RESULTS.md). `bytes` arrays are left to pg (`\\x` hex).
 */
export function arrayLiteral(values: readonly unknown[], type: ColumnType): unknown {
  if (type === 'bytes') return values;
  if (values.length === 0) return '{}';
  if (type === 'text') {
    if (values.every(isPlainText)) return `{"${values.join('","')}"}`;
  } else if (values.every((value) => typeof value === 'number')) return `{${values.join(',')}}`;
  // Anything but scalars (a Buffer, a Date) is pg's to convert, as before.
  return values.every(isScalar) ? `{${values.map(quotedElement).join(',')}}` : values;
}

/** Every column array as its literal (arrayLiteral), `types[i]` being column i's. */
export const arrayLiterals = (columns: readonly (readonly unknown[])[], types: readonly ColumnType[]): unknown[] =>
  columns.map((values, i) => arrayLiteral(values, types[i] ?? 'text'));

const texts = new WeakMap<ColumnForm, string>();

/** The form's statement over column arrays bound as $1..$n, made once per form. */
export function columnText(form: ColumnForm): string {
  let text = texts.get(form);
  if (text === undefined) {
    text = form.sql(unnestRows(form.types));
    texts.set(form, text);
  }
  return text;
}
