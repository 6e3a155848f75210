/** The call log's filters: category (the nine of docs/contract.md#call-logs), status (class or common code), path prefix, page size. */
import { useState } from 'preact/hooks';
import { LOG_CATEGORIES } from '../../../src/ledger/log-entry.js';

export interface LogFilter {
  /** '' for every category. */
  readonly type: string;
  /** '' for any; `2xx`… or an exact code. */
  readonly status: string;
  readonly path: string;
  readonly n: number;
}

const STATUSES: ReadonlyArray<{ value: string; label: string }> = [
  { value: '', label: 'Any status' },
  { value: '2xx', label: '2xx success' },
  { value: '3xx', label: '3xx redirect' },
  { value: '4xx', label: '4xx refused' },
  { value: '5xx', label: '5xx failed' },
  { value: '400', label: '400 Bad Request' },
  { value: '401', label: '401 Unauthorized' },
  { value: '402', label: '402 Insufficient credits' },
  { value: '404', label: '404 Not Found' },
  { value: '429', label: '429 Too Many Requests' },
];

const SIZES = [5, 10, 25, 50, 100];

export function LogFilters({ initial, onApply }: { initial: LogFilter; onApply: (filter: LogFilter) => void }) {
  const [draft, setDraft] = useState(initial);
  const submit = (event: Event) => {
    event.preventDefault();
    onApply({ ...draft, path: draft.path.trim() });
  };
  const reset = () => {
    const cleared = { type: '', status: '', path: '', n: draft.n };
    setDraft(cleared);
    onApply(cleared);
  };
  return (
    <form class="panel log-filters" onSubmit={submit} aria-label="Filter the log">
      <div class="row">
        <div>
          <label for="log-type">Category</label>
          <select
            id="log-type"
            value={draft.type}
            onChange={(event) => setDraft({ ...draft, type: event.currentTarget.value })}
          >
            <option value="">All categories</option>
            {LOG_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="log-status">Status</label>
          <select
            id="log-status"
            value={draft.status}
            onChange={(event) => setDraft({ ...draft, status: event.currentTarget.value })}
          >
            {STATUSES.map((status) => (
              <option key={status.value} value={status.value}>
                {status.label}
              </option>
            ))}
          </select>
        </div>
        <div class="log-path">
          <label for="log-path">Path starts with</label>
          <input
            id="log-path"
            value={draft.path}
            maxLength={200}
            placeholder="/kv/"
            onInput={(event) => setDraft({ ...draft, path: event.currentTarget.value })}
          />
        </div>
        <div class="log-size">
          <label for="log-n">Per page</label>
          <select
            id="log-n"
            value={String(draft.n)}
            onChange={(event) => setDraft({ ...draft, n: Number(event.currentTarget.value) })}
          >
            {SIZES.map((size) => (
              <option key={size} value={String(size)}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" class="primary">
          Apply
        </button>
        <button type="button" onClick={reset}>
          Clear
        </button>
      </div>
    </form>
  );
}
