import { table, when } from './output.js';
import type { LogEntry } from '../types.js';

/** The columns of a log entry, shared by `coinop logs` and `coinop admin logs`. */
export const LOG_HEADERS = ['TIME', 'METHOD', 'PATH', 'TYPE', 'STATUS', 'COST', 'BALANCE', 'ERROR'];

export const logRow = (entry: LogEntry) => [
  when(entry.timestamp),
  entry.method,
  entry.path,
  entry.endpoint,
  entry.status_code,
  entry.cost,
  entry.balance,
  entry.error,
];

/** Entries as the service answers them (newest first), printed oldest first, as a terminal reads them. */
export function logTable(newestFirst: readonly LogEntry[]): string {
  return table(LOG_HEADERS, [...newestFirst].reverse().map(logRow));
}
