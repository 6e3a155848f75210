import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { okText, responses, tokenAuth, PLAIN_TEXT } from '../../http/schemas.js';
import { refundServerErrors, throughStatement, walletOf } from '../../http/metering.js';
import { checkKeyPath, checkValue, parseTtl, MAX_TTL_SECONDS, MAX_VALUE_LENGTH } from './kv.rules.js';
import { KvDeletes, KvReads, KvSets, kvValueCacheFor } from './kv.queries.js';
import type { KvKey } from './kv.queries.js';
import { kvListRoutes, ListParams } from './kv.list-routes.js';

export const Params = Type.Object({
  bucket: ListParams.properties.bucket,
  key: Type.String({ description: '1 to 30 characters; no control characters or /' }),
});
// Closed, as the contract defines the query (docs/contract.md#kv): another parameter is 400 (it would otherwise ride along into the log).
export const SetQuery = Type.Object(
  {
    ttl: Type.Optional(
      Type.String({
        pattern: '^[0-9]+$',
        'x-error': `must be an integer from 0 to ${MAX_TTL_SECONDS}`,
        description: `Seconds to live, 0 to ${MAX_TTL_SECONDS}; 0 or absent mean ${MAX_TTL_SECONDS} (30 days)`,
      }),
    ),
  },
  { additionalProperties: false },
);

const meter = { cost: 1, category: 'kv' } as const;
/**
 * A set's or a delete's charge commits with it where the store can (MeterSpec.paidByStatement): one commit, one flush
 * for both. One whose write could not be made (a 5xx) keeps nothing, on every store (docs/contract.md#metering).
 */
const writeMeter = {
  ...meter,
  paidByStatement: true,
  settle: refundServerErrors,
} as const;
/**
 * A GET writes nothing of the user's: its charge may be answered once committed (docs/reference.md#durability-of-read-charges),
 * and is made by the read itself where the store can (MeterSpec.paidByStatement): one round trip for both.
 */
const readMeter = { ...meter, readOnly: true, paidByStatement: true } as const;
/** A value is at most 1000 characters (up to 4 bytes each in UTF-8); anything far larger is refused unread. */
const KV_BODY_LIMIT = 16 * 1024;

function names(params: { bucket: string; key: string }): { bucket: string; key: string } {
  const problem = checkKeyPath(params.bucket, params.key);
  if (problem !== null) throw errors.badRequest(problem);
  return params;
}

/** The entry a GET or DELETE names, in the caller's wallet; 400 for a bad key path. */
function wantedKey(request: FastifyRequest, params: { bucket: string; key: string }): KvKey {
  const { bucket, key } = names(params);
  return { walletId: walletOf(request).id, bucket, key };
}

// Handlers return the body rather than `reply.send(…)`: an async handler resolving to the reply makes the
// promise adopt it as a thenable, which costs an end-of-stream listener and ticks per request.
export const kvRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  // Every set and delete of the service goes through these, so the cache they share stays true.
  const cache = kvValueCacheFor(deps.store);
  const sets = new KvSets(deps.store, cache, deps.ledger);
  const reads = new KvReads(deps.store, cache, deps.ledger);
  const deletes = new KvDeletes(deps.store, cache, deps.ledger);
  const operations = {
    set: deps.metrics.kvOperation('set'),
    get: deps.metrics.kvOperation('get'),
    delete: deps.metrics.kvOperation('delete'),
  };
  // Values are raw text whatever the content type says.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: KV_BODY_LIMIT },
    (_request: FastifyRequest, body, done) => done(null, body),
  );

  app.post(
    '/kv/:bucket/:key',
    {
      config: { meter: writeMeter },
      bodyLimit: KV_BODY_LIMIT,
      schema: {
        operationId: 'kvSet',
        summary: 'Set a value',
        tags: ['kv'],
        example: { params: { bucket: 'settings', key: 'theme' }, query: { ttl: '3600' }, body: 'dark', response: 'OK' },
        security: tokenAuth,
        params: Params,
        querystring: SetQuery,
        consumes: ['text/plain'],
        // Read by the handler (checkValue), any content type taken as text: shown, not validated by a schema.
        documentedBody: {
          type: 'string',
          maxLength: MAX_VALUE_LENGTH,
          description: `The value: the body as UTF-8 text (any content type), at most ${MAX_VALUE_LENGTH} code points; may be empty.`,
        },
        response: responses(okText(), 400, 401, 402, 413),
      },
    },
    async (request, reply) => {
      const { bucket, key } = names(request.params);
      const ttl = parseTtl(request.query.ttl);
      if (!ttl.ok) throw errors.badRequest(ttl.error);
      const value = typeof request.body === 'string' ? request.body : '';
      const problem = checkValue(value);
      if (problem !== null) throw errors.badRequest(problem);
      const entry = {
        walletId: walletOf(request).id,
        bucket,
        key,
        value,
        expiresAt: deps.clock.now() + ttl.seconds * 1000,
      };
      await throughStatement(
        deps,
        request,
        () => sets.set(entry),
        (owed) => sets.setPaid(entry, owed),
      );
      operations.set.inc();
      reply.type(PLAIN_TEXT);
      return 'OK';
    },
  );

  app.get(
    '/kv/:bucket/:key',
    {
      config: { meter: readMeter },
      schema: {
        operationId: 'kvGet',
        summary: 'Get a value',
        tags: ['kv'],
        example: {
          params: { bucket: 'settings', key: 'theme' },
          response: 'dark',
          errors: { 404: errors.keyNotFound().body },
        },
        security: tokenAuth,
        params: Params,
        response: responses(okText('The stored value'), 400, 401, 402, 404),
      },
    },
    async (request, reply) => {
      const wanted = wantedKey(request, request.params);
      const now = deps.clock.now();
      const value = await throughStatement(
        deps,
        request,
        () => reads.get(wanted, now),
        (owed) => reads.getPaid(wanted, now, owed),
      );
      operations.get.inc();
      if (value === undefined) throw errors.keyNotFound();
      reply.type(PLAIN_TEXT);
      return value;
    },
  );

  app.delete(
    '/kv/:bucket/:key',
    {
      config: { meter: writeMeter },
      schema: {
        operationId: 'kvDelete',
        summary: 'Delete a value',
        tags: ['kv'],
        security: tokenAuth,
        params: Params,
        response: responses(okText(), 400, 401, 402, 404),
        example: {
          params: { bucket: 'settings', key: 'theme' },
          response: 'OK',
          errors: { 404: errors.keyNotFound().body },
        },
      },
    },
    async (request, reply) => {
      const wanted = wantedKey(request, request.params);
      const now = deps.clock.now();
      const deleted = await throughStatement(
        deps,
        request,
        () => deletes.delete(wanted, now),
        (owed) => deletes.deletePaid(wanted, now, owed),
      );
      operations.delete.inc();
      if (!deleted) throw errors.keyNotFound();
      reply.type(PLAIN_TEXT);
      return 'OK';
    },
  );

  // The listings (beyond the contract: docs/reference.md#key-value-store) in their own file.
  await app.register(kvListRoutes, { deps });
};
