/** Custom headers as name/value rows. Saved values read back as `***`: they must be typed again to change the set. */
import type { HeaderRow } from './form-state.js';
import { REDACTED } from './form-state.js';

export function HeadersEditor({
  rows,
  onChange,
}: {
  rows: readonly HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
}) {
  const update = (index: number, change: Partial<HeaderRow>) =>
    onChange(rows.map((row, at) => (at === index ? { ...row, ...change } : row)));
  const remove = (index: number) => onChange(rows.filter((_, at) => at !== index));
  return (
    <fieldset class="headers">
      <legend>Custom headers</legend>
      {rows.length === 0 ? (
        <p class="muted">None. Sent with every callback, e.g. an Authorization header for your receiver.</p>
      ) : null}
      {rows.map((row, index) => (
        <div class="row" key={index}>
          <div>
            <label for={`header-name-${index}`}>Header {index + 1} name</label>
            <input
              id={`header-name-${index}`}
              value={row.name}
              autoComplete="off"
              onInput={(event) => update(index, { name: event.currentTarget.value })}
            />
          </div>
          <div>
            <label for={`header-value-${index}`}>Header {index + 1} value</label>
            <input
              id={`header-value-${index}`}
              value={row.value}
              autoComplete="off"
              aria-describedby={row.value === REDACTED ? 'headers-hidden' : undefined}
              onInput={(event) => update(index, { value: event.currentTarget.value })}
            />
          </div>
          <button type="button" onClick={() => remove(index)} aria-label={`Remove header ${row.name || index + 1}`}>
            Remove
          </button>
        </div>
      ))}
      {rows.some((row) => row.value === REDACTED) ? (
        <p class="muted" id="headers-hidden">
          Saved values are hidden (***). Leave the headers as they are to keep them; to change any, type every value
          again.
        </p>
      ) : null}
      <button type="button" onClick={() => onChange([...rows, { name: '', value: '' }])}>
        Add header
      </button>
    </fieldset>
  );
}
