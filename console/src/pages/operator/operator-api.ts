/** The operator API (x-admin-token) as the console uses it: the answers' shapes and one function per call. */
import { call } from '../../api.js';
import type { Answer } from '../../api.js';
import type { Page } from '../../components/use-paged-list.js';
import type { LogEntry } from '../../components/log-table.js';
import type { OkBody } from '../../api-types.js';

/** `wallet` is the balance, in credits. */
export type WalletSummary = OkBody<'walletList'>['wallets'][number];
export type ServiceStats = OkBody<'serviceStats'>;
/** `day`: a UTC day, YYYY-MM-DD. */
export type DaySpend = ServiceStats['spentPerDay'][number];

export const WALLET_SORTS = [
  { value: 'lastUsed', label: 'Last used' },
  { value: 'balance', label: 'Balance' },
  { value: 'created', label: 'Created' },
] as const;
export type WalletSort = (typeof WALLET_SORTS)[number]['value'];

/** The service's log categories (src/ledger/log-entry.ts), for the log filter; the console does not import server code. */
export const LOG_CATEGORIES = [
  'kv',
  'token',
  'settings',
  'webhook',
  'webhook-delivery',
  'url-to-metadata',
  'myip',
  'service',
  'manage',
] as const;

export type Adjustment = 'credit' | 'debit';

const wallet = (hash: string) => `/manage/wallets/${encodeURIComponent(hash)}`;
const admin = { admin: true } as const;

export const operatorApi = {
  stats: async (days: number) => (await call<ServiceStats>('GET', '/manage/stats', { ...admin, query: { days } })).data,

  async wallets(sort: WalletSort, cursor: string | null, limit: number): Promise<Answer<Page<WalletSummary>>> {
    const query = { sort, cursor: cursor ?? undefined, limit };
    const answer = await call<{ wallets: WalletSummary[]; cursor: string | null }>('GET', '/manage/wallets', {
      ...admin,
      query,
    });
    return { ...answer, data: { items: answer.data.wallets, cursor: answer.data.cursor } };
  },

  wallet: async (hash: string) => (await call<WalletSummary>('GET', wallet(hash), admin)).data,

  async logs(hash: string, cursor: string | null, type: string): Promise<Answer<Page<LogEntry>>> {
    const query = { cursor: cursor ?? undefined, type, limit: 20 };
    const answer = await call<{ logs: LogEntry[]; cursor: string | null }>('GET', `${wallet(hash)}/logs`, {
      ...admin,
      query,
    });
    return { ...answer, data: { items: answer.data.logs, cursor: answer.data.cursor } };
  },

  /** Credits or debits `amount`; resolves with the balance after it. A debit the balance does not cover is refused (409). */
  async adjust(hash: string, kind: Adjustment, amount: number, reason: string): Promise<number> {
    const json = reason === '' ? { amount } : { amount, reason };
    return (await call<{ hash: string; wallet: number }>('POST', `${wallet(hash)}/${kind}`, { ...admin, json })).data
      .wallet;
  },

  remove: async (hash: string): Promise<void> => {
    await call('DELETE', wallet(hash), admin);
  },
};

/** The short form people recognise a wallet by: the first 8 characters of its hash. */
export const shortHash = (hash: string): string => hash.slice(0, 8);

export const isWalletHash = (text: string): boolean => /^[0-9a-f]{64}$/.test(text);
