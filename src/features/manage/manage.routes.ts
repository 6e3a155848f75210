import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { secretGate } from '../../http/guess-throttle.js';
import { auditTo } from './manage.audit.js';
import { walletRoutes } from './manage.wallet.routes.js';
import { listingRoutes } from './manage.listing.routes.js';

/** Operator API: exists only when ADMIN_TOKEN is set (registered by app.ts then). */
export const manageRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; adminToken: string }> = async (
  app,
  { deps, adminToken },
) => {
  // Wrong tokens are counted per client (docs/limits.md): a run of them locks that client out for a while.
  const isAdminToken = secretGate(deps.clock, 'operator token', adminToken);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const given = request.headers['x-admin-token'];
    if (!isAdminToken(request, typeof given === 'string' ? given : undefined)) throw errors.forbidden();
  });
  // Stored hashes are lowercase; a hash given in uppercase names the same wallet (Params).
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const params = request.params as { hash?: string };
    if (params.hash !== undefined) params.hash = params.hash.toLowerCase();
  });
  const audit = auditTo(deps);
  // Child scopes: the token check above runs for their routes too.
  await app.register(walletRoutes, { deps, audit });
  await app.register(listingRoutes, { deps, audit });
};
