import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { okText, PLAIN_TEXT, responses } from '../../http/schemas.js';
import { isoTime } from '../../lib/time.js';
import type { Audit } from './manage.audit.js';
import { adminAuth, AmountBody, BalanceView, EXAMPLE_HASH, Params, WalletView } from './manage.schemas.js';

const tags = ['manage'];

/** One wallet by hash: read, credit, debit and delete (beyond the contract: docs/reference.md#operator-api). */
export const walletRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; audit: Audit }> = async (app, { deps, audit }) => {
  app.get(
    '/manage/wallets/:hash',
    {
      schema: {
        operationId: 'walletGet',
        summary: 'Read a wallet (operator)',
        tags,
        security: adminAuth,
        params: Params,
        response: responses(WalletView, 400, 403, 404, 429),
        example: {
          params: { hash: EXAMPLE_HASH },
          response: {
            hash: EXAMPLE_HASH,
            wallet: 99,
            created: '2026-06-01T12:00:00.000Z',
            lastUsed: '2026-06-02T08:30:00.000Z',
          },
        },
      },
    },
    async (request) => {
      const wallet = await deps.ledger.walletByHash(request.params.hash);
      if (wallet === undefined) throw errors.notFound();
      audit(request, { walletId: wallet.id, statusCode: 200, balance: wallet.balance });
      return {
        hash: wallet.hash,
        wallet: wallet.balance,
        created: isoTime(wallet.created_at),
        lastUsed: isoTime(wallet.last_used_at),
      };
    },
  );

  app.post(
    '/manage/wallets/:hash/credit',
    {
      schema: {
        operationId: 'walletCredit',
        summary: 'Credit a wallet (operator)',
        tags,
        security: adminAuth,
        params: Params,
        body: AmountBody,
        response: responses(BalanceView, 400, 403, 404, 429),
        example: {
          params: { hash: EXAMPLE_HASH },
          body: { amount: 500, reason: 'Support ticket 1234' },
          response: { hash: EXAMPLE_HASH, wallet: 599 },
        },
      },
    },
    async (request) => {
      const wallet = await deps.ledger.walletByHash(request.params.hash);
      const balance = wallet === undefined ? undefined : await deps.ledger.credit(wallet.id, request.body.amount);
      if (wallet === undefined || balance === undefined) throw errors.notFound();
      audit(request, { walletId: wallet.id, statusCode: 200, balance, reason: request.body.reason });
      return { hash: wallet.hash, wallet: balance };
    },
  );

  app.post(
    '/manage/wallets/:hash/debit',
    {
      schema: {
        operationId: 'walletDebit',
        summary: 'Debit a wallet (operator; beyond the contract)',
        description:
          'Takes `amount` credits, all or nothing: a balance that does not cover it answers 409 and nothing changes.',
        tags,
        security: adminAuth,
        params: Params,
        body: AmountBody,
        response: responses(BalanceView, 400, 403, 404, 409, 429),
        example: {
          params: { hash: EXAMPLE_HASH },
          body: { amount: 100, reason: 'Refunded payment 5678' },
          response: { hash: EXAMPLE_HASH, wallet: 499 },
          errors: { 409: 'Balance too low' },
        },
      },
    },
    async (request) => {
      const wallet = await deps.ledger.walletByHash(request.params.hash);
      if (wallet === undefined) throw errors.notFound();
      const debit = await deps.ledger.debit(wallet.id, request.body.amount);
      if (debit.balance === undefined) throw errors.notFound(); // deleted meanwhile
      const refusal = debit.ok ? undefined : errors.balanceTooLow();
      audit(request, {
        walletId: wallet.id,
        statusCode: refusal?.statusCode ?? 200,
        balance: debit.balance,
        reason: request.body.reason,
        error: refusal?.body,
      });
      if (refusal !== undefined) throw refusal;
      return { hash: wallet.hash, wallet: debit.balance };
    },
  );

  app.delete(
    '/manage/wallets/:hash',
    {
      schema: {
        operationId: 'walletDelete',
        summary: 'Delete a wallet and all its data (operator; beyond the contract)',
        description:
          'Removes the wallet with its keys, webhooks, schedules, settings, log and delivery history; its token answers 401 from then on. Not logged in the wallet (its log goes with it).',
        tags,
        security: adminAuth,
        params: Params,
        response: responses(okText(), 400, 403, 404, 429),
        example: { params: { hash: EXAMPLE_HASH }, response: 'OK' },
      },
    },
    async (request, reply) => {
      const wallet = await deps.ledger.walletByHash(request.params.hash);
      if (wallet === undefined || !(await deps.ledger.deleteWallet(wallet))) throw errors.notFound();
      // The wallet's own log is gone with it: the service log keeps the record.
      deps.logger.info({ wallet: wallet.hash }, 'operator deleted a wallet');
      reply.type(PLAIN_TEXT);
      return 'OK';
    },
  );
};
