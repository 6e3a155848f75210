import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { ISODate, responses, tokenAuth } from '../../http/schemas.js';
import { walletOf } from '../../http/metering.js';
import { isoTime } from '../../lib/time.js';
import { LOG_CATEGORIES, LOG_RETENTION_MS } from '../../ledger/log-entry.js';
import { recentLogs } from './logs.queries.js';
import type { LogRow } from './logs.queries.js';

// Closed, as SPEC defines the query: an unknown parameter is 400 (this free call is logged with its path).
export const Query = Type.Object(
  {
    n: Type.Integer({ minimum: 1, maximum: 100, default: 5, 'x-error': 'must be an integer from 1 to 100' }),
    type: Type.Optional(Type.String({ enum: [...LOG_CATEGORIES], description: 'Filter on the log endpoint category' })),
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
  deliveryId: Type.Optional(Type.String({ description: 'webhook-delivery entries: the delivery (GET /webhook/{id}/deliveries/{deliveryId})' })),
});

const LogsResponse = Type.Object({ logs: Type.Array(LogEntry), n: Type.Integer() });

function toEntry(row: LogRow) {
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
  };
}

export const logRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/token/logs',
    {
      config: { meter: { cost: 0, category: 'token' } },
      schema: {
        operationId: 'logsList',
        summary: 'Recent calls, newest first (free)',
        tags: ['token'],
        example: {
          query: { n: 1, type: 'kv' },
          response: {
            logs: [
              {
                id: '01JX4Q8Z6T3N5R7V9B2D4F6H8K',
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
          },
        },
        security: tokenAuth,
        querystring: Query,
        response: responses(LogsResponse, 400, 401),
      },
    },
    async (request) => {
      // This instance's own pending rows are written first, so a caller sees the calls it just made.
      await deps.ledger.flush();
      const rows = await recentLogs(deps.store.read, walletOf(request).id, request.query.n, deps.clock.now(), LOG_RETENTION_MS, request.query.type);
      return { logs: rows.map(toEntry), n: rows.length };
    },
  );
};
