import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { isoTime } from '../../lib/time.js';
import { ISODate, okText, responses, tokenAuth, PLAIN_TEXT } from '../../http/schemas.js';
import { walletOf } from '../../http/metering.js';
import { createToken } from './tokens.service.js';

const CreateTokenBody = Type.Object(
  { token: Type.String({ enum: ['new'], 'x-error': 'must be the literal new' }) },
  { additionalProperties: false, 'x-error': 'expected the form field token=new' },
);

export const WalletInfo = Type.Object({
  wallet: Type.Integer({ description: 'Remaining credits' }),
  created: ISODate,
  hash: Type.String({ description: 'SHA-256 hex of the token' }),
});

export const tokenRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  // Form bodies only here: `token=new` is the whole API of this route.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  app.post(
    '/token',
    {
      schema: {
        operationId: 'tokenCreate',
        summary: 'Create a token (a wallet with 100 credits)',
        tags: ['token'],
        example: { body: { token: 'new' }, response: 'coin_Vq3n8ZkXw1sQe7JtYb2LmR5pHc9GdAf4uTo6KyNi0Ws' },
        consumes: ['application/x-www-form-urlencoded'],
        body: CreateTokenBody,
        response: responses(okText('The new token'), 400, 413, 429),
      },
    },
    async (request, reply) => {
      const outcome = await createToken(deps.store, request.client.key, deps.clock.now());
      if (!outcome.ok) throw errors.tooManyRequests(outcome.retryAfterMs / 1000);
      reply.type(PLAIN_TEXT);
      return outcome.token;
    },
  );

  app.get(
    '/token',
    {
      config: { meter: { cost: 1, category: 'token', readOnly: true } },
      schema: {
        operationId: 'tokenGet',
        summary: 'Wallet info',
        tags: ['token'],
        example: {
          response: {
            wallet: 99,
            created: '2026-06-01T12:00:00.000Z',
            hash: 'a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8',
          },
        },
        security: tokenAuth,
        response: responses(WalletInfo, 401, 402),
      },
    },
    async (request) => {
      const wallet = walletOf(request);
      return { wallet: request.meter?.balance ?? 0, created: isoTime(wallet.createdAt), hash: wallet.hash };
    },
  );
};
