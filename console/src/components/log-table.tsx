/**
 * Log entries as a table, newest first: one row per call, the error (or an operator's reason) last. The wallet's call
 * log and the operator's view of a wallet's log both show it.
 */
import type { ComponentChildren } from 'preact';
import { formatInstant, relativeTime } from './ui.js';
import type { OkBody } from '../api-types.js';
import './log-table.css';

/** An entry of GET /token/logs (and of the operator's GET /manage/wallets/{hash}/logs, whose manage rows carry a reason). */
export type LogEntry = OkBody<'logsList'>['logs'][number];

interface LogTableProps {
  readonly entries: readonly LogEntry[];
  /** What the rows are, for the scrolling region's name and the caption. */
  readonly label?: string;
  /** Shortens a long path for display (the operator's carry a whole wallet hash); the tooltip keeps the whole path. */
  readonly shortenPath?: (path: string) => string;
  /** Shown under the table, inside its scrolling region. */
  readonly children?: ComponentChildren;
}

const time = (iso: string): string => formatInstant(iso);

export function LogTable({ entries, label = 'Calls', shortenPath, children }: LogTableProps) {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={label}>
      <table class="log-table" data-testid="log-table">
        <caption class="visually-hidden">{label}, newest first</caption>
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
            <LogRow key={entry.id} entry={entry} shortenPath={shortenPath} />
          ))}
        </tbody>
      </table>
      {children}
    </div>
  );
}

function LogRow({ entry, shortenPath }: { entry: LogEntry; shortenPath: ((path: string) => string) | undefined }) {
  const path = shortenPath === undefined ? entry.path : shortenPath(entry.path);
  return (
    <tr>
      <td class="nowrap">
        <time dateTime={entry.timestamp} title={`${entry.timestamp} (${relativeTime(entry.timestamp)})`}>
          {time(entry.timestamp)}
        </time>
      </td>
      <td>{entry.method}</td>
      <td class="log-path-cell" title={path === entry.path ? undefined : entry.path}>
        <code>{path}</code>
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
        {entry.reason === undefined ? null : (
          <span class="reason">
            Reason: <span data-testid="log-reason">{entry.reason}</span>
          </span>
        )}
      </td>
    </tr>
  );
}
