/** A wallet's log for the operator, newest first, a page at a time, filtered by category; manage rows show their reason. */
import { useState } from 'preact/hooks';
import { ErrorNote, Loading } from '../../components/ui.js';
import { LOG_CATEGORIES, operatorApi, shortHash } from './operator-api.js';
import type { LogEntry } from './operator-api.js';
import { usePages } from './use-pages.js';
import { When } from './when.js';

/** `changes` counts credits and debits tried on the page: each one reloads the log, so its new row shows. */
export function WalletLog({ hash, changes }: { hash: string; changes: number }) {
  const [category, setCategory] = useState('');
  const logs = usePages((cursor) => operatorApi.logs(hash, cursor, category), [hash, category, changes]);
  return (
    <section class="panel" aria-labelledby="log-title">
      <h2 id="log-title">Log</h2>
      <p class="muted">Kept 7 days. Each look at this wallet or its log by the operator is itself logged (category manage, free).</p>
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
      <div class="op-scroll">
        <table class="op-log">
          <caption class="op-sr-only">Log entries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Call</th>
              <th scope="col">Category</th>
              <th scope="col" class="num">
                Status
              </th>
              <th scope="col" class="num">
                Cost
              </th>
              <th scope="col" class="num">
                Balance
              </th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {logs.items.map((entry) => (
              <LogRow key={entry.id} entry={entry} hash={hash} />
            ))}
          </tbody>
        </table>
      </div>
      {!logs.loading && logs.error === undefined && logs.items.length === 0 ? <p class="muted">No entries{category === '' ? '' : ` in ${category}`}.</p> : null}
      <Loading when={logs.loading} />
      {logs.hasMore ? (
        <div class="actions">
          <button type="button" disabled={logs.loading} onClick={logs.more}>
            More
          </button>
        </div>
      ) : null}
    </section>
  );
}

function LogRow({ entry, hash }: { entry: LogEntry; hash: string }) {
  // Operator paths carry the whole 64-character hash: shortened here, whole in the tooltip.
  const path = entry.path.split(hash).join(`${shortHash(hash)}…`);
  return (
    <tr>
      <td>
        <When iso={entry.timestamp} />
      </td>
      <td class="op-call" title={entry.path}>
        <code>
          {entry.method} {path}
        </code>
        {entry.error === undefined ? null : <div class="error">{entry.error}</div>}
      </td>
      <td>{entry.endpoint}</td>
      <td class="num">{entry.status_code}</td>
      <td class="num">{entry.cost}</td>
      <td class="num">{entry.balance.toLocaleString()}</td>
      <td data-testid="log-reason">{entry.reason ?? ''}</td>
    </tr>
  );
}
