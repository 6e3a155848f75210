import { Type } from '@sinclair/typebox';
import { ISODate, Nullable } from '../../http/schemas.js';
import { LOG_CATEGORIES } from '../../ledger/log-entry.js';
import type { LogCategory } from '../../ledger/log-entry.js';
import { LogEntry } from '../logs/index.js';

export const adminAuth = [{ AdminAuth: [] as string[] }];
export const EXAMPLE_HASH = 'a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8';
export const EXAMPLE_CURSOR = 'WzE3ODA0NzUwMDAwMDAsNDJd';

/** Either case: tools differ (sha256sum writes lowercase, PowerShell's Get-FileHash uppercase); the routes read it lowercased. */
export const Params = Type.Object({
  hash: Type.String({ pattern: '^[0-9a-fA-F]{64}$', 'x-error': 'must be a SHA-256 hex hash' }),
});

/** A credit or a debit: the amount, and the reason kept on that call's log entry. */
export const AmountBody = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: 1e9, 'x-error': 'must be an integer from 1 to 1000000000' }),
    reason: Type.Optional(
      Type.String({ maxLength: 200, description: "Shown as `reason` on this call's entry in the wallet's log" }),
    ),
  },
  { additionalProperties: false },
);

export const WalletView = Type.Object({
  hash: Type.String(),
  wallet: Type.Integer(),
  created: ISODate,
  lastUsed: ISODate,
});
export const BalanceView = Type.Object({ hash: Type.String(), wallet: Type.Integer() });

const Limit = Type.Integer({ minimum: 1, maximum: 100, default: 20, 'x-error': 'must be an integer from 1 to 100' });
const Cursor = Type.String({ maxLength: 200, description: 'The `cursor` of the previous page; omitted for the first' });

export const WALLET_SORTS = ['lastUsed', 'balance', 'created'] as const;
export type WalletSort = (typeof WALLET_SORTS)[number];

export const WalletListQuery = Type.Object(
  {
    cursor: Type.Optional(Cursor),
    limit: Limit,
    sort: Type.Unsafe<WalletSort>({
      type: 'string',
      enum: [...WALLET_SORTS],
      default: 'lastUsed',
      description: 'Newest or highest first; ties by wallet, newest first',
    }),
  },
  { additionalProperties: false },
);
export const WalletList = Type.Object({
  wallets: Type.Array(WalletView),
  cursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last' })),
});

export const WalletLogsQuery = Type.Object(
  {
    cursor: Type.Optional(Cursor),
    limit: Limit,
    type: Type.Optional(
      Type.Unsafe<LogCategory>({
        type: 'string',
        enum: [...LOG_CATEGORIES],
        description: 'Filter on the log endpoint category',
      }),
    ),
  },
  { additionalProperties: false },
);
export const WalletLogs = Type.Object({
  logs: Type.Array(LogEntry),
  cursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last' })),
});

export const MAX_STATS_DAYS = 90;
export const StatsQuery = Type.Object(
  {
    days: Type.Integer({
      minimum: 1,
      maximum: MAX_STATS_DAYS,
      default: 7,
      'x-error': `must be an integer from 1 to ${MAX_STATS_DAYS}`,
    }),
  },
  { additionalProperties: false },
);
export const Stats = Type.Object({
  wallets: Type.Integer({ description: 'Wallets that exist' }),
  credits: Type.Integer({ description: 'Credits in circulation: the sum of every balance' }),
  spentPerDay: Type.Array(
    Type.Object({
      day: Type.String({ format: 'date', description: 'UTC day' }),
      credits: Type.Integer({ description: 'Credits spent that day' }),
    }),
    { description: 'The last `days` days, oldest first, today included' },
  ),
});
