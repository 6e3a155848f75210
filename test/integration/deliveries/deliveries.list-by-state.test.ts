import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { insertNumberedRows } from '../../helpers/numbered-rows.js';
import { entriesReadBy, recordingSql, sqlitePlan } from '../../helpers/query-plans.js';
import type { RunStatement } from '../../helpers/query-plans.js';
import { DELIVERY_STATUSES } from '../../../src/delivery-core/delivery.js';
import type { DeliveryStatus, DeliveryTrigger } from '../../../src/delivery-core/delivery.js';
import { listDeliveries } from '../../../src/delivery-core/index.js';
import type { DeliveryQuery } from '../../../src/delivery-core/history.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const WEEK_AGO = NOW - 7 * 24 * 3600_000;

/**
 * GET /webhook/{id}/deliveries?status=…: a list of one state reads that state's deliveries newest first from an index
 * range and stops after n of them, whatever else the webhook holds (it read every delivery of the week and dropped
 * the other states': 200,000 deliveries, 40 ms and more a call); unfiltered, the three states' ranges are merged as
 * they go. Read from SQLite's plans and counted from PostgreSQL's executed ones, and timed on the large webhook against
 * the same list on a small one, measured in the same run (a bound in ms alone would measure the host).
 */
describeEachStore('GET /webhook/{id}/deliveries: a list of one state reads a bounded part of the history', (kind) => {
  const get = useTestApp(kind);
  const WALLET = 1;
  const BUSY = 'busy';
  const DELIVERIES = 200_000;
  const QUIET = 'quiet';
  const QUIET_DELIVERIES = 1_000;

  /** `count` deliveries of webhook `id` a week long, every `failureEvery`th a failure, the rest successes; none pending. */
  const seed = (id: string, count: number, failureEvery: number) =>
    insertNumberedRows(
      get().deps.store,
      'deliveries',
      'id, wallet_id, webhook_id, trigger, created_at, status, attempts, url, cost, max_attempts',
      count,
      `'msg_${id}_' || i, ${WALLET}, '${id}', 'schedule', ${WEEK_AGO + 60_000} + i * 3000,
       CASE WHEN i % ${failureEvery} = 0 THEN 'failure' ELSE 'success' END, 1, 'https://example.com/', 1, 1`,
    );

  beforeAll(async () => {
    // Ten failures on each (the oldest first): the lists of one state answer the same on both.
    await seed(BUSY, DELIVERIES, 20_000);
    await seed(QUIET, QUIET_DELIVERIES, 100);
  }, 300_000);

  const query = (limit: number, status?: DeliveryStatus, webhookId = BUSY): DeliveryQuery => ({
    walletId: WALLET,
    webhookId,
    limit,
    status,
    expiredAt: WEEK_AGO,
  });

  /** The statement a list runs, with its answer. */
  async function listed(q: DeliveryQuery): Promise<{ statement: RunStatement; ids: string[] }> {
    const { store } = get().deps;
    const { sql, statements } = recordingSql(store.read);
    const deliveries = await listDeliveries({ read: sql, mergeWalks: store.mergeWalks }, q);
    expect(statements).toHaveLength(1);
    return { statement: statements[0] as RunStatement, ids: deliveries.map((delivery) => delivery.id) };
  }

  it.each([
    ['failure', 5],
    ['pending', 5],
    ['success', 5],
    [undefined, 5],
  ] as const)('status %s: reads its n rows from index ranges of the state, newest first', async (status, limit) => {
    const { store } = get().deps;
    const { statement, ids } = await listed(query(limit, status));
    const expected = {
      failure: [180_000, 160_000, 140_000, 120_000, 100_000],
      pending: [],
      success: [199_999, 199_998, 199_997, 199_996, 199_995],
    };
    expect(ids).toEqual((expected[status ?? 'success'] as number[]).map((i) => `msg_busy_${i}`));
    const walks = status === undefined ? DELIVERY_STATUSES.length : 1;
    if (kind === 'sqlite') {
      const plan = await sqlitePlan(store, statement);
      const shown = plan.join('\n');
      const ranges = plan.filter((line) =>
        /SEARCH deliveries USING INDEX \w+ \(wallet_id=\? AND webhook_id=\? AND status=\? AND created_at>\?\)/.test(
          line,
        ),
      );
      expect(ranges.length, shown).toBe(walks);
      expect(
        plan.filter((line) => /SCAN deliveries|TEMP B-TREE/.test(line)),
        shown,
      ).toEqual([]);
      return;
    }
    // Each walk reads at most one entry past what the merge takes from it.
    expect(await entriesReadBy(store, statement)).toBeLessThanOrEqual(limit + walks);
  });

  it.each(['failure', 'pending'] as const)(
    'status %s: on a webhook of 200,000 deliveries takes at most 1.5 times the same list on one of 1,000, plus 2 ms',
    async (status) => {
      const { store } = get().deps;
      /** The fastest of seven calls, once warm: what the call itself costs, without the other processes of a busy host. */
      async function fastest(webhookId: string): Promise<number> {
        await listDeliveries(store, query(100, status, webhookId));
        const times: number[] = [];
        for (let i = 0; i < 7; i++) {
          const started = performance.now();
          await listDeliveries(store, query(100, status, webhookId));
          times.push(performance.now() - started);
        }
        return Math.min(...times);
      }
      // Interleaved, so the host's drift falls on both alike.
      const busy: number[] = [];
      const quiet: number[] = [];
      for (let round = 0; round < 3; round++) {
        busy.push(await fastest(BUSY));
        quiet.push(await fastest(QUIET));
      }
      const shown = `busy ${busy.map((t) => t.toFixed(2)).join(' ')}; quiet ${quiet.map((t) => t.toFixed(2)).join(' ')}`;
      expect(Math.min(...busy), shown).toBeLessThan(1.5 * Math.min(...quiet) + 2);
    },
  );
});

interface Seeded {
  readonly id: string;
  readonly walletId: number;
  readonly webhookId: string;
  readonly trigger: DeliveryTrigger;
  readonly createdAt: number;
  readonly status: DeliveryStatus;
}

/** What a list shows: its rows, newest first, ties on time by id (descending). */
describeEachStore('GET /webhook/{id}/deliveries: the list of a state, and of every state, in order', (kind) => {
  const get = useTestApp(kind);
  const WALLET = 7;
  const expiredAt = NOW - 1000;
  const seeded: Seeded[] = [];

  beforeAll(async () => {
    const triggers: DeliveryTrigger[] = ['schedule', 'email', 'test', 'low_balance', 'redelivery'];
    for (let i = 0; i < 90; i++)
      seeded.push({
        id: `msg_${String(i).padStart(3, '0')}`,
        // Another wallet's webhook of the same name, and another webhook of this wallet, are left out.
        walletId: i % 11 === 5 ? WALLET + 1 : WALLET,
        webhookId: i % 13 === 6 ? 'other' : i % 2 === 0 ? 'hook' : 'low-balance',
        trigger: triggers[i % triggers.length] as DeliveryTrigger,
        // Three deliveries a millisecond, ids in no time order; the oldest ten expired.
        createdAt: expiredAt - 10 + Math.floor(((i * 37) % 90) / 3),
        status: DELIVERY_STATUSES[(i * 5) % 7 < 2 ? 0 : (i * 5) % 7 < 5 ? 1 : 2] as DeliveryStatus,
      });
    await get().deps.store.write(async (tx) => {
      for (const d of seeded)
        await tx.run(
          `INSERT INTO deliveries (id, wallet_id, webhook_id, trigger, created_at, status, attempts, url, cost, max_attempts)
           VALUES ($1, $2, $3, $4, $5, $6, 1, 'https://example.com/', 1, 1)`,
          [d.id, d.walletId, d.webhookId, d.trigger, d.createdAt, d.status],
        );
    });
  });

  it.each(['hook', 'low-balance'])(
    'webhook %s: each state and every state, n from 1 to all, as the history holds them',
    async (webhookId) => {
      const { store } = get().deps;
      for (const status of [undefined, ...DELIVERY_STATUSES])
        for (const limit of [1, 4, 100]) {
          const expected = seeded
            .filter(
              (d) =>
                d.walletId === WALLET &&
                d.webhookId === webhookId &&
                d.createdAt > expiredAt &&
                d.trigger !== 'low_balance',
            )
            .filter((d) => status === undefined || d.status === status)
            .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
            .slice(0, limit)
            .map((d) => d.id);
          const listed = await listDeliveries(store, { walletId: WALLET, webhookId, limit, status, expiredAt });
          expect(
            listed.map((d) => d.id),
            `${status ?? 'every state'}, n=${limit}`,
          ).toEqual(expected);
          if (limit === 100) expect(expected.length).toBeGreaterThan(status === undefined ? 8 : 2);
        }
    },
  );
});
