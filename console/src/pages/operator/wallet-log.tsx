/** A wallet's log for the operator, newest first, a page at a time, filtered by category; manage rows show their reason. */
import { useState } from 'preact/hooks';
import { LogTable } from '../../components/log-table.js';
import { ErrorNote, Loading } from '../../components/ui.js';
import { usePagedList } from '../../components/use-paged-list.js';
import { LOG_CATEGORIES, operatorApi, shortHash } from './operator-api.js';

/** `changes` counts credits and debits tried on the page: each one reloads the log, so its new row shows. */
export function WalletLog({ hash, changes }: { hash: string; changes: number }) {
  const [category, setCategory] = useState('');
  const list = usePagedList((cursor) => operatorApi.logs(hash, cursor, category), [hash, category, changes]);
  const logs = { ...list, items: list.items ?? [] };
  return (
    <section class="panel" aria-labelledby="log-title">
      <h2 id="log-title">Log</h2>
      <p class="muted">
        Kept 7 days. Each look at this wallet or its log by the operator is itself logged (category manage, free).
      </p>
      <div class="row operator-sort">
        <div>
          <label for="log-category">Category</label>
          <select id="log-category" value={category} onChange={(event) => setCategory(event.currentTarget.value)}>
            <option value="">All</option>
            {LOG_CATEGORIES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={logs.reload} disabled={logs.loading}>
          Refresh
        </button>
      </div>
      <ErrorNote error={logs.error} />
      <LogTable
        entries={logs.items}
        label="Log entries"
        shortenPath={(path) => path.split(hash).join(`${shortHash(hash)}…`)}
      />
      {!logs.loading && logs.error === undefined && logs.items.length === 0 ? (
        <p class="muted">No entries{category === '' ? '' : ` in ${category}`}.</p>
      ) : null}
      <Loading when={logs.loading} />
      {logs.more ? (
        <div class="actions">
          <button type="button" disabled={logs.loading} onClick={logs.loadMore}>
            More
          </button>
        </div>
      ) : null}
    </section>
  );
}
