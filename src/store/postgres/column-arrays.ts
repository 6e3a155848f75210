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
