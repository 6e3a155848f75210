import type { Sql } from '../../store/store.js';
import type { WalletRow } from '../../ledger/ledger.js';
import { DAY } from '../../lib/time.js';
import type { WalletSort } from './manage.schemas.js';

/** The column of each sort; ties broken by id, both descending. */
export const SORT_COLUMNS = {
  lastUsed: 'last_used_at',
  balance: 'balance',
  created: 'created_at',
} as const satisfies Record<WalletSort, keyof WalletRow>;

/**
 * Listings of the sort, first page and next ones, made once. created and lastUsed walk their index (created_at,
 * id) / (last_used_at, id) backwards from the cursor, so a page costs its rows whatever the wallet count; balance
 * has no index (see migration 15): each of its pages is one pass over the wallets, keeping only the page's rows.
 */
const LISTINGS = Object.fromEntries(
  Object.entries(SORT_COLUMNS).map(([sort, column]) => {
    const select = 'SELECT id, hash, balance, created_at, last_used_at FROM wallets';
    const order = `ORDER BY ${column} DESC, id DESC LIMIT $1`;
    return [sort, { first: `${select} ${order}`, next: `${select} WHERE (${column}, id) < ($2, $3) ${order}` }];
  }),
) as Record<WalletSort, { first: string; next: string }>;

/** Up to `limit` wallets in the sort's order, after `after` (a previous page's last wallet) when given. */
export function walletsPage(
  sql: Sql,
  sort: WalletSort,
  limit: number,
  after?: { value: number; id: number },
): Promise<WalletRow[]> {
  const listing = LISTINGS[sort];
  return after === undefined
    ? sql.all<WalletRow>(listing.first, [limit])
    : sql.all<WalletRow>(listing.next, [limit, after.value, after.id]);
}

export interface WalletTotals {
  wallets: number;
  credits: number;
}

/** How many wallets there are and the credits they hold: one pass over the wallets table. */
export async function walletTotals(sql: Sql): Promise<WalletTotals> {
  const row = await sql.get<{ wallets: number | string; credits: number | string | null }>(
    'SELECT COUNT(*) AS wallets, SUM(balance) AS credits FROM wallets',
  );
  return { wallets: Number(row?.wallets ?? 0), credits: Number(row?.credits ?? 0) };
}

/** Credits spent on each of the `days` UTC days up to today's, oldest first, a day without spending as 0. */
export async function spentPerDay(
  sql: Sql,
  now: number,
  days: number,
): Promise<Array<{ day: string; credits: number }>> {
  const today = now - (now % DAY);
  const first = today - (days - 1) * DAY;
  const rows = await sql.all<{ day: number; credits: number }>(
    'SELECT day, credits FROM spend_per_day WHERE day >= $1 AND day <= $2',
    [first, today],
  );
  const byDay = new Map(rows.map((row) => [Number(row.day), Number(row.credits)]));
  return Array.from({ length: days }, (_, i) => {
    const day = first + i * DAY;
    return { day: new Date(day).toISOString().slice(0, 10), credits: byDay.get(day) ?? 0 };
  });
}
