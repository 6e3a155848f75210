import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { responses } from '../../http/schemas.js';
import { isoTime } from '../../lib/time.js';
import { LOG_RETENTION_MS } from '../../ledger/log-entry.js';
import { decodeLogCursor, encodeLogCursor, logEntryOf, logPage, NEWEST_LOG_POSITION } from '../logs/index.js';
import type { Audit } from './manage.audit.js';
import { decodePairCursor, encodePairCursor } from '../../lib/pair-cursor.js';
import { SORT_COLUMNS, spentPerDay, walletsPage, walletTotals } from './manage.queries.js';
import {
  adminAuth,
  EXAMPLE_CURSOR,
  EXAMPLE_HASH,
  Params,
  Stats,
  StatsQuery,
  WalletList,
  WalletListQuery,
  WalletLogs,
  WalletLogsQuery,
} from './manage.schemas.js';

const tags = ['manage'];

const CURSOR_RULE = 'must be the cursor of a previous page';

function positionOf(cursor: string | undefined): { value: number; id: number } | undefined {
  if (cursor === undefined) return undefined;
  const pair = decodePairCursor(cursor);
  if (pair === undefined) throw errors.invalidField('cursor', CURSOR_RULE);
  return { value: pair[0], id: pair[1] };
}

/** Beyond the contract (docs/reference.md#operator-api): every wallet page by page, one wallet's log page by page, and totals. Lists and totals are not audited (no one wallet). */
export const listingRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; audit: Audit }> = async (app, { deps, audit }) => {
  app.get(
    '/manage/wallets',
    {
      schema: {
        operationId: 'walletList',
        summary: 'List wallets, newest or highest first, a page at a time (operator; beyond the contract)',
        tags,
        security: adminAuth,
        querystring: WalletListQuery,
        response: responses(WalletList, 400, 403, 429),
        example: {
          query: { sort: 'balance', limit: 1 },
          response: {
            wallets: [
              {
                hash: EXAMPLE_HASH,
                wallet: 599,
                created: '2026-06-01T12:00:00.000Z',
                lastUsed: '2026-06-02T08:30:00.000Z',
              },
            ],
            cursor: EXAMPLE_CURSOR,
          },
        },
      },
    },
    async (request) => {
      const { sort, limit } = request.query;
      // One more than the page: whether a next page exists, without a second query.
      const rows = await walletsPage(deps.store.read, sort, limit + 1, positionOf(request.query.cursor));
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        wallets: page.map((row) => ({
          hash: row.hash,
          wallet: row.balance,
          created: isoTime(row.created_at),
          lastUsed: isoTime(row.last_used_at),
        })),
        cursor: rows.length > limit && last !== undefined ? encodePairCursor(last[SORT_COLUMNS[sort]], last.id) : null,
      };
    },
  );

  app.get(
    '/manage/wallets/:hash/logs',
    {
      schema: {
        operationId: 'walletLogs',
        summary: "A wallet's log, newest first, a page at a time (operator; beyond the contract)",
        tags,
        security: adminAuth,
        params: Params,
        querystring: WalletLogsQuery,
        response: responses(WalletLogs, 400, 403, 404, 429),
        example: {
          params: { hash: EXAMPLE_HASH },
          query: { type: 'manage', limit: 1 },
          response: {
            logs: [
              {
                id: '01JX4Q8Z6T3N5R7V9B2D',
                method: 'POST',
                path: `/manage/wallets/${EXAMPLE_HASH}/credit`,
                endpoint: 'manage',
                status_code: 200,
                response_time_ms: 0,
                timestamp: '2026-06-01T12:00:00.000Z',
                expiration: '2026-06-08T12:00:00.000Z',
                cost: 0,
                balance: 599,
                reason: 'Support ticket 1234',
              },
            ],
            cursor: 'MTc4MDMxNTIwMDAwMC40Mg',
          },
        },
      },
    },
    async (request) => {
      const { limit, type, cursor } = request.query;
      // GET /token/logs's own paging and cursors: the same entries, pages and shape.
      const before = cursor === undefined ? NEWEST_LOG_POSITION : decodeLogCursor(cursor);
      if (before === undefined) throw errors.invalidField('cursor', CURSOR_RULE);
      const wallet = await deps.ledger.walletByHash(request.params.hash);
      if (wallet === undefined) throw errors.notFound();
      await deps.ledger.flush(); // rows this instance recorded but has not written yet
      const page = await logPage(deps.store, {
        walletId: wallet.id,
        n: limit,
        before,
        since: deps.clock.now() - LOG_RETENTION_MS,
        category: type,
      });
      audit(request, { walletId: wallet.id, statusCode: 200, balance: wallet.balance });
      return { logs: page.rows.map(logEntryOf), cursor: page.next === undefined ? null : encodeLogCursor(page.next) };
    },
  );

  app.get(
    '/manage/stats',
    {
      schema: {
        operationId: 'serviceStats',
        summary: 'Wallets, credits in circulation and credits spent per day (operator; beyond the contract)',
        tags,
        security: adminAuth,
        querystring: StatsQuery,
        response: responses(Stats, 400, 403, 429),
        example: {
          query: { days: 2 },
          response: {
            wallets: 1250,
            credits: 184_300,
            spentPerDay: [
              { day: '2026-06-01', credits: 5120 },
              { day: '2026-06-02', credits: 4870 },
            ],
          },
        },
      },
    },
    async (request) => {
      await deps.ledger.flush(); // spending this instance recorded but has not written yet
      const [totals, spent] = await Promise.all([
        walletTotals(deps.store.read),
        spentPerDay(deps.store.read, deps.clock.now(), request.query.days),
      ]);
      return { ...totals, spentPerDay: spent };
    },
  );
};
