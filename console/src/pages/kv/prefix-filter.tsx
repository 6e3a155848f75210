/** A prefix filter for a listing: applied on submit (each listing is a paid call), never on every keystroke. */
import { useState } from 'preact/hooks';

export function PrefixFilter({ id, label, onApply }: { id: string; label: string; onApply: (prefix: string) => void }) {
  const [prefix, setPrefix] = useState('');
  return (
    <form
      class="row kv-filter"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(prefix);
      }}
    >
      <div>
        <label for={id}>{label}</label>
        <input
          id={id}
          type="search"
          autoComplete="off"
          spellcheck={false}
          value={prefix}
          onInput={(event) => setPrefix(event.currentTarget.value)}
        />
      </div>
      <button type="submit">Filter</button>
    </form>
  );
}
