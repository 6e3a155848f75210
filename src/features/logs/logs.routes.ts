import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { ISODate, Nullable, responses, tokenAuth } from '../../http/schemas.js';
import { walletOf } from '../../http/metering.js';
import { inListingTurn } from '../../outbound/pools.js';
import { isoTime } from '../../lib/time.js';
import { LOG_CATEGORIES, LOG_RETENTION_MS } from '../../ledger/log-entry.js';
import type { LogCategory } from '../../ledger/log-entry.js';
import type { LogRow } from './logs.queries.js';
import { logPage } from './logs.page.js';
import type { StatusRange } from './logs.page.js';
import { NEWEST, decodeCursor, encodeCursor } from './logs.cursor.js';
import { spendRoutes } from './spend.routes.js';
import { errors } from '../../errors.js';

const CURSOR_RULE = 'must be the cursor of a previous answer';

// Closed, as the contract defines the query (docs/contract.md#call-logs): an unknown parameter is 400 (this free call is logged with its path).
export const Query = Type.Object(
  {
    n: Type.Integer({ minimum: 1, maximum: 100, default: 5, 'x-error': 'must be an integer from 1 to 100' }),
    type: Type.Optional(Type.String({ enum: [...LOG_CATEGORIES], description: 'Filter on the log endpoint category' })),
  },
  { additionalProperties: false },
);

/** The contract's query and, beyond it, paging and filters (docs/reference.md#call-logs); without them the answer is the contract's. */
const PagedQuery = Type.Object(
  {
    ...Query.properties,
    cursor: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "Beyond the contract: the previous answer's `cursor`, for the next (older) page",
        'x-error': CURSOR_RULE,
      }),
    ),
    status: Type.Optional(
      Type.String({
        pattern: '^([2-5]xx|[1-5][0-9][0-9])$',
        description:
          'Beyond the contract: only entries of this status: a class (`2xx`, `3xx`, `4xx`, `5xx`) or an exact code',
        'x-error': 'must be 2xx, 3xx, 4xx, 5xx or a status code from 100 to 599',
      }),
    ),
    path: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Beyond the contract: only entries whose path starts with this',
        'x-error': 'must be 1 to 200 characters',
      }),
    ),
  },
  { additionalProperties: false },
);

export const LogEntry = Type.Object({
  id: Type.String(),
  method: Type.String(),
  path: Type.String({ description: 'Request path with query; the webhookId for webhook-delivery entries' }),
  endpoint: Type.String({ enum: [...LOG_CATEGORIES] }),
  status_code: Type.Integer(),
  response_time_ms: Type.Integer(),
  error: Type.Optional(Type.String()),
  timestamp: ISODate,
  expiration: ISODate,
  cost: Type.Integer(),
  balance: Type.Integer(),
  deliveryId: Type.Optional(
    Type.String({ description: 'webhook-delivery entries: the delivery (GET /webhook/{id}/deliveries/{deliveryId})' }),
  ),
  reason: Type.Optional(
    Type.String({
      description: 'Beyond the contract: manage entries, the reason the operator gave for a credit or debit',
    }),
  ),
});

const LogsResponse = Type.Object({
  logs: Type.Array(LogEntry),
  n: Type.Integer(),
  cursor: Nullable(
    Type.String({
      description:
        'Beyond the contract: send as `cursor` for the next (older) page; null when no entry is left. A filtered page may hold fewer than n entries while the cursor is not null (each call looks at a bounded number of entries).',
    }),
  ),
});

/** `2xx` → 200..300, `404` → 404..405. */
function statusRange(status: string): StatusRange {
  const from = status.endsWith('xx') ? Number(status[0]) * 100 : Number(status);
  return { from, to: status.endsWith('xx') ? from + 100 : from + 1 };
}

export function toEntry(row: LogRow) {
  return {
    id: row.id,
    method: row.method,
    path: row.path,
    endpoint: row.endpoint,
    status_code: row.status_code,
    response_time_ms: row.response_time_ms,
    ...(row.error === null ? {} : { error: row.error }),
    timestamp: isoTime(row.created_at),
    expiration: isoTime(row.created_at + LOG_RETENTION_MS),
    cost: row.cost,
    balance: row.balance,
    ...(row.delivery_id === null ? {} : { deliveryId: row.delivery_id }),
    ...(row.note === null ? {} : { reason: row.note }),
  };
}

export const logRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/token/logs',
    {
      config: { meter: { cost: 0, category: 'token', readOnly: true } },
      schema: {
        operationId: 'logsList',
        summary: 'Recent calls, newest first (free)',
        description:
          'The contract: the newest n entries, optionally of one category. Beyond the contract: `status` and `path` filter further, and `cursor` (from the previous answer) pages on to older entries; a filtered call looks at no more than 5,000 entries, so a page may hold fewer than n entries while `cursor` is not null.',
        tags: ['token'],
        example: {
          query: { n: 1, type: 'kv', status: '2xx' },
          response: {
            logs: [
              {
                id: '7fKq2XbLm9Rt4WvNc8Zp',
                method: 'GET',
                path: '/kv/settings/theme',
                endpoint: 'kv',
                status_code: 200,
                response_time_ms: 2,
                timestamp: '2026-06-01T12:00:00.000Z',
                expiration: '2026-06-08T12:00:00.000Z',
                cost: 1,
                balance: 98,
              },
            ],
            n: 1,
            cursor: 'MTc4MDMxNTIwMDAwMC40Mg',
          },
        },
        security: tokenAuth,
        querystring: PagedQuery,
        response: responses(LogsResponse, 400, 401, 503),
      },
    },
    async (request) => {
      const { n, type, cursor, status, path } = request.query;
      const before = cursor === undefined ? NEWEST : decodeCursor(cursor);
      if (before === undefined) throw errors.invalidField('cursor', CURSOR_RULE);
      const walletId = walletOf(request).id;
      // This instance's own pending rows are written first, so a caller sees the calls it just made.
      await deps.ledger.flush();
      // A filtered page may walk up to 5,000 entries (logs.page.ts): a listing (inListingTurn), free as it is.
      return inListingTurn(deps.pools, walletId, async () => {
        const page = await logPage(deps.store, {
          walletId,
          n,
          before,
          since: deps.clock.now() - LOG_RETENTION_MS,
          category: type as LogCategory | undefined,
          status: status === undefined ? undefined : statusRange(status),
          pathPrefix: path,
        });
        return {
          logs: page.rows.map(toEntry),
          n: page.rows.length,
          cursor: page.next === undefined ? null : encodeCursor(page.next),
        };
      });
    },
  );

  await app.register(spendRoutes, { deps });
};
