import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { sha256Hex } from '../../lib/hash.js';
import { auditTo } from './manage.audit.js';
import { walletRoutes } from './manage.wallet.routes.js';
import { listingRoutes } from './manage.listing.routes.js';

/** Operator API: exists only when ADMIN_TOKEN is set (registered by app.ts then). */
export const manageRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; adminToken: string }> = async (app, { deps, adminToken }) => {
  // Compare digests so the check takes the same time whatever the guess.
  const expected = Buffer.from(sha256Hex(adminToken), 'hex');
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const given = request.headers['x-admin-token'];
    if (typeof given !== 'string' || !timingSafeEqual(Buffer.from(sha256Hex(given), 'hex'), expected)) throw errors.forbidden();
  });
  const audit = auditTo(deps);
  // Child scopes: the token check above runs for their routes too.
  await app.register(walletRoutes, { deps, audit });
  await app.register(listingRoutes, { deps, audit });
};
