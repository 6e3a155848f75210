import type { Sql } from '../../store/store.js';
import { LOG_CATEGORIES } from '../../ledger/log-entry.js';
import { LOG_COLUMNS } from '../../ledger/log-insert.js';

export interface LogRow {
  id: string;
  method: string;
  path: string;
  endpoint: string;
  status_code: number;
  response_time_ms: number;
  error: string | null;
  created_at: number;
  cost: number;
  balance: number;
  delivery_id: string | null;
}

/**
 * Without a category: the newest of each category's newest `limit` (one index range each, the only
 * index logs have), merged. Categories are our constants, never user input.
 */
const ALL_CATEGORIES = `SELECT ${LOG_COLUMNS} FROM (${LOG_CATEGORIES.map(
  (category, i) =>
    `SELECT * FROM (SELECT ${LOG_COLUMNS}, seq FROM logs WHERE wallet_id = $1 AND endpoint = '${category}' AND created_at > $2 ORDER BY created_at DESC, seq DESC LIMIT $3) AS c${i}`,
).join(' UNION ALL ')}) AS recent ORDER BY created_at DESC, seq DESC LIMIT $3`;

export function recentLogs(sql: Sql, walletId: number, limit: number, now: number, retentionMs: number, endpoint?: string): Promise<LogRow[]> {
  const since = now - retentionMs;
  if (endpoint === undefined) return sql.all<LogRow>(ALL_CATEGORIES, [walletId, since, limit]);
  return sql.all<LogRow>(
    `SELECT ${LOG_COLUMNS} FROM logs WHERE wallet_id = $1 AND endpoint = $2 AND created_at > $3 ORDER BY created_at DESC, seq DESC LIMIT $4`,
    [walletId, endpoint, since, limit],
  );
}
