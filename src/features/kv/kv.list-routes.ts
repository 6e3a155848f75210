import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { ISODate, Nullable, responses, tokenAuth } from '../../http/schemas.js';
import { refundServerErrors, walletOf } from '../../http/metering.js';
import { isoTime } from '../../lib/time.js';
import {
  BUCKET_COUNT_CAP,
  BUCKET_PAGE_COUNT_BUDGET,
  checkName,
  checkPaging,
  DEFAULT_LIST_LIMIT,
  MAX_LIST_LIMIT,
} from './kv.rules.js';
import { listBuckets, listKeys } from './kv.listing.js';
import { inListingTurn } from '../../outbound/pools.js';

const Bucket = Type.String({
  description: '1 to 30 characters; no control characters or /; no reserved- prefix, no --- suffix',
});
export const ListParams = Type.Object({ bucket: Bucket });

/** The listings' query (docs/reference.md#key-value-store); closed as the contract's queries are, so an unknown parameter is 400. */
const pageQuery = (names: 'keys' | 'buckets') =>
  Type.Object(
    {
      prefix: Type.Optional(
        Type.String({
          description: `Only ${names} starting with this (at most 30 characters; no control characters or /)`,
        }),
      ),
      cursor: Type.Optional(Type.String({ description: "Opaque: the previous answer's `cursor`, for the next page" })),
      limit: Type.Integer({
        minimum: 1,
        maximum: MAX_LIST_LIMIT,
        default: DEFAULT_LIST_LIMIT,
        'x-error': `must be an integer from 1 to ${MAX_LIST_LIMIT}`,
        description: `How many ${names} a page lists, 1 to ${MAX_LIST_LIMIT}`,
      }),
    },
    { additionalProperties: false },
  );
export const ListQuery = pageQuery('keys');
export const BucketsQuery = pageQuery('buckets');

const Cursor = Nullable(
  Type.String({ description: 'Pass it as `cursor` for the next page; null when none remain. Opaque.' }),
);
const KeyList = Type.Object({
  keys: Type.Array(
    Type.Object({
      key: Type.String(),
      expiresAt: ISODate,
      size: Type.Integer({ description: "The value's length in UTF-8 bytes" }),
    }),
  ),
  cursor: Cursor,
});
const BucketList = Type.Object({
  buckets: Type.Array(
    Type.Object({
      bucket: Type.String(),
      keys: Type.Integer({ description: "Live keys (counted among the bucket's first entries: see `capped`)" }),
      size: Type.Integer({ description: "The live values' length in UTF-8 bytes (of the same entries)" }),
      capped: Type.Boolean({
        description: `The bucket holds more entries than the page counts of each (${BUCKET_COUNT_CAP}, or ${BUCKET_PAGE_COUNT_BUDGET} ÷ limit when less): keys and size count only its first ones (in byte order), a lower bound`,
      }),
    }),
  ),
  cursor: Cursor,
});

/** A listing refused for its wallet's queue (503, inListingTurn) costs nothing, as every 5xx. */
const meter = { cost: 1, category: 'kv', readOnly: true, settle: refundServerErrors } as const;
const EXPIRES = '2026-07-01T12:00:00.000Z';

/** `prefix` and `cursor` follow the name rules (plain-text 400 naming the field). */
function pagingChecked(prefix: string, cursor: string | undefined): void {
  const problem = checkPaging(prefix, cursor);
  if (problem !== null) throw errors.badRequest(problem);
}

/** The listings beyond the contract (docs/reference.md#key-value-store: the web console; also `coinop kv ls|buckets` and the MCP tools kv_list, kv_buckets). */
export const kvListRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const listed = deps.metrics.kvOperation('list');

  app.get(
    '/kv/:bucket',
    {
      config: { meter },
      schema: {
        operationId: 'kvList',
        summary: "List a bucket's keys",
        description:
          "Beyond the contract. The bucket's live keys in byte order with their expiry and value size (UTF-8 bytes), `limit` a page " +
          "(default 20): pass the answer's `cursor` back as `cursor` for the next page; it is null when none remain.",
        tags: ['kv'],
        example: {
          params: { bucket: 'settings' },
          query: { prefix: 'th', limit: 2 },
          response: {
            keys: [
              { key: 'theme', expiresAt: EXPIRES, size: 4 },
              { key: 'theme-accent', expiresAt: EXPIRES, size: 7 },
            ],
            cursor: 'theme-accent',
          },
        },
        security: tokenAuth,
        params: ListParams,
        querystring: ListQuery,
        response: responses(KeyList, 400, 401, 402, 503),
      },
    },
    async (request) => {
      const { bucket } = request.params;
      const { prefix = '', cursor, limit } = request.query;
      const problem = checkName('bucket', bucket);
      if (problem !== null) throw errors.badRequest(problem);
      pagingChecked(prefix, cursor);
      const walletId = walletOf(request).id;
      // Expired keys not swept yet are skipped one by one: a listing may read far more rows than it answers.
      const page = await inListingTurn(deps.pools, walletId, () =>
        listKeys(deps.store.read, { walletId, bucket, prefix, cursor, limit }, deps.clock.now()),
      );
      listed.inc();
      return {
        keys: page.keys.map((entry) => ({ key: entry.key, expiresAt: isoTime(entry.expiresAt), size: entry.size })),
        cursor: page.cursor,
      };
    },
  );

  app.get(
    '/kv',
    {
      config: { meter },
      schema: {
        operationId: 'kvBuckets',
        summary: "List the wallet's buckets",
        description:
          'Beyond the contract. Buckets holding live keys, in byte order, with their live keys and the size of their values (UTF-8 bytes), ' +
          `\`limit\` a page (default 20), paged with \`cursor\` as kvList is. Counting is bounded: a page counts ${BUCKET_PAGE_COUNT_BUDGET} entries at ` +
          `most, each bucket's first ${BUCKET_COUNT_CAP} or, above 10 buckets a page, its first ${BUCKET_PAGE_COUNT_BUDGET} ÷ limit (500 at the default 20); ` +
          '`capped` says a bucket holds more (its counts are then a lower bound). A page may hold fewer ' +
          'than `limit` buckets while its cursor is not null (buckets whose keys all expired are left out).',
        tags: ['kv'],
        example: {
          query: { limit: 2 },
          response: {
            buckets: [
              { bucket: 'sessions', keys: 1000, size: 48213, capped: true },
              { bucket: 'settings', keys: 3, size: 18, capped: false },
            ],
            cursor: 'settings',
          },
        },
        security: tokenAuth,
        querystring: BucketsQuery,
        response: responses(BucketList, 400, 401, 402, 503),
      },
    },
    async (request) => {
      const { prefix = '', cursor, limit } = request.query;
      pagingChecked(prefix, cursor);
      const walletId = walletOf(request).id;
      // Up to 10,000 entries counted: milliseconds of the store's work for one credit.
      const page = await inListingTurn(deps.pools, walletId, () =>
        listBuckets(deps.store.read, { walletId, prefix, cursor, limit }, deps.clock.now()),
      );
      listed.inc();
      return page;
    },
  );
};
