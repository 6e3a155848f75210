import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { ISODate, responses, tokenAuth } from '../../http/schemas.js';
import { walletOf } from '../../http/metering.js';
import { DAY, HOUR, isoTime } from '../../lib/time.js';
import { LOG_CATEGORIES } from '../../ledger/log-entry.js';
import { spendSeries } from './spend.queries.js';
import type { SpendPeriod } from './spend.queries.js';

// Closed like GET /token/logs: an unknown parameter is 400.
const SpendQuery = Type.Object(
  {
    days: Type.Integer({
      minimum: 1,
      maximum: 7,
      default: 7,
      description: 'How many days back (the log keeps 7)',
      'x-error': 'must be an integer from 1 to 7',
    }),
    by: Type.String({ enum: ['hour', 'day'], default: 'day', description: 'Sum per UTC hour or per UTC day' }),
  },
  { additionalProperties: false },
);

const SpendResponse = Type.Object({
  by: Type.String({ enum: ['hour', 'day'] }),
  from: Type.String({ format: 'date-time', description: 'Start of the first period covered' }),
  to: Type.String({ format: 'date-time', description: 'Now: the last period is the current one, so far' }),
  series: Type.Array(
    Type.Object({
      start: ISODate,
      endpoint: Type.String({ enum: [...LOG_CATEGORIES], description: 'The log category' }),
      credits: Type.Integer({ description: 'Credits charged' }),
      calls: Type.Integer({ description: 'Calls logged, free ones included' }),
    }),
    { description: 'Periods and categories with at least one logged call, oldest first, then by category' },
  ),
});

/**
 * The start of the first period shown: `days` whole UTC days up to today (by day) or `days` × 24 hours up to the
 * current hour (by hour). Both lie within the 8 days spend_hourly keeps.
 */
function firstPeriod(now: number, by: SpendPeriod, days: number): number {
  return by === 'day' ? now - (now % DAY) - (days - 1) * DAY : now - (now % HOUR) - (days * 24 - 1) * HOUR;
}

/** Beyond the contract (docs/reference.md#call-logs): credits spent per hour or day and category, from the hourly sums the log keeps. */
export const spendRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/token/spend',
    {
      config: { meter: { cost: 0, category: 'token', readOnly: true } },
      schema: {
        operationId: 'spendSummary',
        summary: 'Credits spent per hour or day and category, last 7 days at most (free; beyond the contract)',
        description:
          'Sums of the call log per UTC hour or day and log category, for charts. Free, like GET /token/logs, and logged like it (as `token`). Calls counts every logged call, free ones included (credits 0).',
        tags: ['token'],
        example: {
          query: { days: 1, by: 'hour' },
          response: {
            by: 'hour',
            from: '2026-06-01T13:00:00.000Z',
            to: '2026-06-02T12:34:56.789Z',
            series: [
              { start: '2026-06-02T11:00:00.000Z', endpoint: 'kv', credits: 42, calls: 42 },
              { start: '2026-06-02T11:00:00.000Z', endpoint: 'token', credits: 1, calls: 3 },
              { start: '2026-06-02T12:00:00.000Z', endpoint: 'service', credits: 10, calls: 2 },
            ],
          },
        },
        security: tokenAuth,
        querystring: SpendQuery,
        response: responses(SpendResponse, 400, 401),
      },
    },
    async (request) => {
      const by = request.query.by as SpendPeriod;
      const now = deps.clock.now();
      const from = firstPeriod(now, by, request.query.days);
      // This instance's pending log rows carry the newest sums: written first, as GET /token/logs does.
      await deps.ledger.flush();
      const rows = await spendSeries(deps.store.read, walletOf(request).id, by, from);
      return {
        by,
        from: isoTime(from),
        to: isoTime(now),
        series: rows.map((row) => ({
          start: isoTime(row.start),
          endpoint: row.endpoint,
          credits: row.credits,
          calls: row.calls,
        })),
      };
    },
  );
};
