import { timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { sha256Hex } from '../../lib/hash.js';
import { ISODate, responses } from '../../http/schemas.js';
import { isoTime } from '../../lib/time.js';

const Params = Type.Object({ hash: Type.String({ pattern: '^[0-9a-f]{64}$', 'x-error': 'must be a SHA-256 hex hash' }) });
const CreditBody = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: 1e9, 'x-error': 'must be an integer from 1 to 1000000000' }),
    reason: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
const WalletView = Type.Object({ hash: Type.String(), wallet: Type.Integer(), created: ISODate, lastUsed: ISODate });
const CreditView = Type.Object({ hash: Type.String(), wallet: Type.Integer() });
const adminAuth = [{ AdminAuth: [] as string[] }];
const EXAMPLE_HASH = 'a3f1c9d2e4b6a8c0e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8';

/** Operator API: exists only when ADMIN_TOKEN is set (registered by app.ts then). */
export const manageRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; adminToken: string }> = async (app, { deps, adminToken }) => {
  // Compare digests so the check takes the same time whatever the guess.
  const expected = Buffer.from(sha256Hex(adminToken), 'hex');
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const given = request.headers['x-admin-token'];
    if (typeof given !== 'string' || !timingSafeEqual(Buffer.from(sha256Hex(given), 'hex'), expected)) throw errors.forbidden();
  });

  function audit(request: FastifyRequest, walletId: number, statusCode: number, balance: number): void {
    deps.ledger.recordAlways({
      walletId,
      method: request.method,
      path: request.url,
      endpoint: 'manage',
      statusCode,
      responseTimeMs: 0,
      cost: 0,
      balance,
    });
  }

  app.get(
    '/manage/wallets/:hash',
    {
      schema: {
        operationId: 'walletGet',
        summary: 'Read a wallet (operator)',
        tags: ['manage'],
        security: adminAuth,
        params: Params,
        response: responses(WalletView, 400, 403, 404),
        example: {
          params: { hash: EXAMPLE_HASH },
          response: { hash: EXAMPLE_HASH, wallet: 99, created: '2026-06-01T12:00:00.000Z', lastUsed: '2026-06-02T08:30:00.000Z' },
        },
      },
    },
    async (request) => {
      const wallet = await deps.ledger.walletByHash(request.params.hash);
      if (wallet === undefined) throw errors.notFound();
      audit(request, wallet.id, 200, wallet.balance);
      return { hash: wallet.hash, wallet: wallet.balance, created: isoTime(wallet.created_at), lastUsed: isoTime(wallet.last_used_at) };
    },
  );

  app.post(
    '/manage/wallets/:hash/credit',
    {
      schema: {
        operationId: 'walletCredit',
        summary: 'Credit a wallet (operator)',
        tags: ['manage'],
        security: adminAuth,
        params: Params,
        body: CreditBody,
        response: responses(CreditView, 400, 403, 404),
        example: { params: { hash: EXAMPLE_HASH }, body: { amount: 500, reason: 'Support ticket 1234' }, response: { hash: EXAMPLE_HASH, wallet: 599 } },
      },
    },
    async (request) => {
      const wallet = await deps.ledger.walletByHash(request.params.hash);
      const balance = wallet === undefined ? undefined : await deps.ledger.credit(wallet.id, request.body.amount);
      if (wallet === undefined || balance === undefined) throw errors.notFound();
      audit(request, wallet.id, 200, balance);
      return { hash: wallet.hash, wallet: balance };
    },
  );
};
