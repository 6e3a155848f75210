import { describe, expect, it } from 'vitest';
import { spendRowsOf } from '../../../src/ledger/log-insert.js';
import type { LogRecord } from '../../../src/ledger/log-entry.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const record = (walletId: number, createdAt: number, endpoint: string, cost: number): LogRecord =>
  ({
    id: `${walletId}-${createdAt}-${cost}`,
    walletId,
    method: 'GET',
    path: '/',
    endpoint,
    statusCode: 200,
    responseTimeMs: 1,
    createdAt,
    cost,
    balance: 0,
  }) as LogRecord;

describe('the spend totals of a log batch', () => {
  it('sums per wallet, hour and category in key order: every call counts, only positive costs are credits', () => {
    const [hourly] = spendRowsOf([
      record(2, HOUR + 5, 'kv', 3),
      record(1, 2 * HOUR, 'kv', 1),
      record(2, HOUR + 9, 'kv', -2),
      record(1, 2 * HOUR + 1, 'dns', 4),
    ]);
    expect(hourly).toEqual([
      [1, 2 * HOUR, 'dns', 4, 1],
      [1, 2 * HOUR, 'kv', 1, 1],
      [2, HOUR, 'kv', 3, 2],
    ]);
  });

  it('sums positive costs per UTC day, one row per day however the batch interleaves them, in day order', () => {
    const [, daily] = spendRowsOf([
      record(1, DAY + 1, 'kv', 2),
      record(1, 5, 'kv', 1),
      record(2, DAY + 7, 'kv', 3),
      record(1, 9, 'kv', 0),
      record(1, 2 * DAY, 'kv', -1),
    ]);
    expect(daily).toEqual([
      [0, 1],
      [DAY, 5],
    ]);
  });
});
