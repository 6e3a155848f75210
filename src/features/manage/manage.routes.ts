import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { GuessThrottle, OPERATOR_GUESSES } from '../../http/guess-throttle.js';
import { sha256Hex } from '../../lib/hash.js';
import { auditTo } from './manage.audit.js';
import { walletRoutes } from './manage.wallet.routes.js';
import { listingRoutes } from './manage.listing.routes.js';

/** Operator API: exists only when ADMIN_TOKEN is set (registered by app.ts then). */
export const manageRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; adminToken: string }> = async (app, { deps, adminToken }) => {
  // Compare digests so the check takes the same time whatever the guess.
  const expected = Buffer.from(sha256Hex(adminToken), 'hex');
  // Wrong tokens are counted per client (docs/limits.md): a run of them locks that client out for a while.
  const guesses = new GuessThrottle(deps.clock, OPERATOR_GUESSES);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const client = request.client.key;
    const wait = guesses.wait(client);
    if (wait > 0) throw errors.tooManyRequests(wait / 1000);
    const given = request.headers['x-admin-token'];
    if (typeof given === 'string' && timingSafeEqual(Buffer.from(sha256Hex(given), 'hex'), expected)) return guesses.succeeded(client);
    if (guesses.failed(client)) {
      // The client, never what it sent.
      request.log.warn(
        { client, failures: OPERATOR_GUESSES.failures, lockedForSeconds: OPERATOR_GUESSES.windowMs / 1000 },
        'operator token: too many wrong guesses',
      );
    }
    throw errors.forbidden();
  });
  const audit = auditTo(deps);
  // Child scopes: the token check above runs for their routes too.
  await app.register(walletRoutes, { deps, audit });
  await app.register(listingRoutes, { deps, audit });
};
