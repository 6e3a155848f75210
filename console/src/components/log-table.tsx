/** Log entries as a table: one row per call, the error (or an operator's reason) last. */
import { relativeTime } from './ui.js';

export interface LogEntry {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  readonly endpoint: string;
  readonly status_code: number;
  readonly response_time_ms: number;
  readonly error?: string;
  readonly timestamp: string;
  readonly cost: number;
  readonly balance: number;
  readonly reason?: string;
}

const time = (iso: string): string =>
  new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

export function LogTable({ entries, more }: { entries: readonly LogEntry[]; more: boolean }) {
  if (entries.length === 0) {
    return <p class="panel muted">{more ? 'No matching entries among these; press Older to keep looking.' : 'No calls match these filters.'}</p>;
  }
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label="Calls">
      <table class="log-table" data-testid="log-table">
        <caption class="visually-hidden">Calls, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Method</th>
            <th scope="col">Path</th>
            <th scope="col">Category</th>
            <th scope="col" class="num">
              Status
            </th>
            <th scope="col" class="num">
              ms
            </th>
            <th scope="col" class="num">
              Cost
            </th>
            <th scope="col" class="num">
              Balance
            </th>
            <th scope="col">Error or reason</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td class="nowrap">
                <time dateTime={entry.timestamp} title={`${entry.timestamp} (${relativeTime(entry.timestamp)})`}>
                  {time(entry.timestamp)}
                </time>
              </td>
              <td>{entry.method}</td>
              <td class="log-path-cell">
                <code>{entry.path}</code>
              </td>
              <td class="nowrap">{entry.endpoint}</td>
              <td class="num">
                <span class={`badge ${entry.status_code < 400 ? 'ok' : 'error'}`}>{entry.status_code}</span>
              </td>
              <td class="num">{entry.response_time_ms.toLocaleString()}</td>
              <td class="num">{entry.cost.toLocaleString()}</td>
              <td class="num">{entry.balance.toLocaleString()}</td>
              <td class="log-note">
                {entry.error === undefined ? null : <span class="error-text">{entry.error}</span>}
                {entry.reason === undefined ? null : <span class="reason">Reason: {entry.reason}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {more && entries.length > 0 ? <p class="muted small">Older entries remain: press Older.</p> : null}
    </div>
  );
}
