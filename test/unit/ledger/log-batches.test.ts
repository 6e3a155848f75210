import { describe, expect, it } from 'vitest';
import {
  decodeLogBatch,
  encodeLogBatches,
  LOG_BATCH_CAPACITY,
  LOG_BATCH_COLUMNS,
  LOG_BATCH_SPAN_MS,
} from '../../../src/ledger/log-batches.js';
import type { LogCategory, LogRecord } from '../../../src/ledger/log-entry.js';

const record = (i: number, createdAt: number, walletId = 1, endpoint: LogCategory = 'kv'): LogRecord => ({
  id: `r${i}`,
  walletId,
  method: 'GET',
  path: `/kv/b/${i}`,
  endpoint,
  statusCode: 200,
  responseTimeMs: 1,
  createdAt,
  cost: 1,
  balance: 100 - i,
});

/** The stored rows as objects, their entries' ids in order. */
function stored(records: readonly LogRecord[]) {
  const values = encodeLogBatches(records);
  const width = LOG_BATCH_COLUMNS.length;
  return Array.from({ length: values.length / width }, (_, b) => {
    const row = values.slice(b * width, (b + 1) * width) as [number, string, number, number, number, string];
    const ids = decodeLogBatch(b + 1, row[1], row[5]).map((entry) => entry.id);
    return { walletId: row[0], endpoint: row[1], firstAt: row[2], lastAt: row[3], count: row[4], ids };
  });
}

describe('the call log stored as batches', () => {
  it('stores one batch per wallet and category, entries in order of writing', () => {
    const rows = stored([record(0, 10), record(1, 11, 2), record(2, 12, 1, 'token'), record(3, 13), record(4, 13, 2)]);
    expect(rows).toEqual([
      { walletId: 1, endpoint: 'kv', firstAt: 10, lastAt: 13, count: 2, ids: ['r0', 'r3'] },
      { walletId: 2, endpoint: 'kv', firstAt: 11, lastAt: 13, count: 2, ids: ['r1', 'r4'] },
      { walletId: 1, endpoint: 'token', firstAt: 12, lastAt: 12, count: 1, ids: ['r2'] },
    ]);
  });

  it('starts a new batch past the span, past the capacity, and when times go back', () => {
    const spanned = stored([record(0, 0), record(1, LOG_BATCH_SPAN_MS), record(2, LOG_BATCH_SPAN_MS + 1)]);
    expect(spanned.map((row) => row.ids)).toEqual([['r0', 'r1'], ['r2']]);
    const many = stored(Array.from({ length: LOG_BATCH_CAPACITY + 1 }, (_, i) => record(i, 5)));
    expect(many.map((row) => row.count)).toEqual([LOG_BATCH_CAPACITY, 1]);
    const clockSetBack = stored([record(0, 50), record(1, 40), record(2, 45)]);
    expect(clockSetBack.map((row) => [row.firstAt, row.lastAt, row.ids])).toEqual([
      [50, 50, ['r0']],
      [40, 45, ['r1', 'r2']],
    ]);
  });

  it('reads back every field, and each entry its place: seq × capacity + index', () => {
    const full: LogRecord = {
      ...record(0, 7),
      error: 'boom "quoted" \\ é',
      deliveryId: 'msg_1',
      note: 'refund',
    };
    const values = encodeLogBatches([record(1, 6), full]);
    const [entryA, entryB] = decodeLogBatch(3, 'kv', values[5] as string);
    expect(entryA).toMatchObject({ id: 'r1', error: null, delivery_id: null, note: null, seq: 3 * LOG_BATCH_CAPACITY });
    expect(entryB).toEqual({
      id: 'r0',
      method: 'GET',
      path: '/kv/b/0',
      endpoint: 'kv',
      status_code: 200,
      response_time_ms: 1,
      error: 'boom "quoted" \\ é',
      created_at: 7,
      cost: 1,
      balance: 100,
      delivery_id: 'msg_1',
      note: 'refund',
      seq: 3 * LOG_BATCH_CAPACITY + 1,
    });
  });
});
