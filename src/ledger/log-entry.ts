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
export type LogCategory = (typeof LOG_CATEGORIES)[number];

/** A log row as recorded; timestamps are epoch milliseconds. */
export interface LogRecord {
  readonly id: string;
  readonly walletId: number;
  readonly method: string;
  readonly path: string;
  readonly endpoint: LogCategory;
  readonly statusCode: number;
  readonly responseTimeMs: number;
  readonly error?: string;
  readonly createdAt: number;
  readonly cost: number;
  readonly balance: number;
  /** A webhook delivery's id (its `webhook-id`, src/delivery-core), on the rows deliveries write. */
  readonly deliveryId?: string;
  /** The reason an operator gave for a credit or debit (operator API rows only). */
  readonly note?: string;
}

/** What a caller records: the ledger gives each row its id and creation time. */
export type LogEntry = Omit<LogRecord, 'id' | 'createdAt'>;

/** Entries expire seven days after creation (docs/contract.md#call-logs). */
export const LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** A log `path` or `error` longer than this (UTF-16 code units) is stored cut, ending with `…`. */
export const MAX_LOG_TEXT = 512;
