import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { errors } from '../errors.js';
import { sha256Hex } from '../lib/hash.js';
import type { LogCategory } from '../features/logs/log-entry.js';
import type { WalletRef } from '../features/tokens/wallet-directory.js';
import { creditWallet } from '../features/tokens/wallet.queries.js';

/**
 * How a route is metered: declared once on the route (`config: { meter }`), carried out here.
 * Order: authenticate (onRequest, before the body is read) → charge (preValidation, so bad input
 * still pays) → handler → settle (refunds by status) and headers (onSend) → log (onResponse).
 */
export interface MeterSpec {
  readonly category: LogCategory;
  /** Credits charged before the handler; may depend on the parsed (not yet validated) request. */
  readonly cost: number | ((request: FastifyRequest) => number);
  /** Charged when the request fails before the cost could be computed (unparsable body). Default: `cost` if a number, else 0. */
  readonly failureCost?: number;
  /** What the log shows as `path`. Default: the request path with its query string. */
  readonly logPath?: (request: FastifyRequest) => string;
  /** The final cost once the status is known; the difference is refunded. Default: keep the charge. */
  readonly settle?: (statusCode: number, charged: number) => number;
  /**
   * The handler acts outside the service (a delivery, a fetch, queries to other servers): its charge must be
   * durable before it runs, as for scheduled runs. Otherwise the charge shares the commit of the handler's own writes.
   */
  readonly durableBeforeHandler?: boolean;
}

export interface MeterState {
  readonly wallet: WalletRef;
  charged?: number;
  balance?: number;
  /** The plain-text error answered, for the log. */
  error?: string;
  /** Settles when the charge is committed; the response waits for it. */
  durable?: Promise<void>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    meter?: MeterSpec;
  }
  interface FastifyRequest {
    meter?: MeterState;
  }
}

export const MIN_TOKEN_LENGTH = 10;

/** The wallet of an authenticated request; routes declared with a meter always have one. */
export function walletOf(request: FastifyRequest): WalletRef {
  if (request.meter === undefined) throw new Error(`route ${request.url} is not metered`);
  return request.meter.wallet;
}

export async function charge(deps: Deps, request: FastifyRequest, cost: number): Promise<void> {
  const state = request.meter;
  if (state === undefined || state.charged !== undefined) return;
  const outcome = await deps.charger.charge(state.wallet.id, cost);
  if (!outcome.ok && outcome.reason === 'gone') {
    deps.wallets.forget(state.wallet.hash);
    request.meter = undefined;
    throw errors.unauthorized();
  }
  if (!outcome.ok) {
    state.charged = 0;
    state.balance = outcome.balance;
    throw errors.insufficientCredits();
  }
  state.charged = cost;
  state.balance = outcome.balance;
  state.durable = outcome.durable;
}

/**
 * Charges a request that failed before preValidation (unparsable or oversized body): client errors pay,
 * as SPEC says. A 401 has no wallet to charge and a 5xx is ours (a charge that could not be made, say), so neither pays.
 */
export async function chargeFailedRequest(deps: Deps, request: FastifyRequest, statusCode: number): Promise<void> {
  const spec = request.routeOptions.config.meter;
  if (statusCode === 401 || statusCode >= 500) return;
  if (spec === undefined || request.meter === undefined || request.meter.charged !== undefined) return;
  await charge(deps, request, spec.failureCost ?? (typeof spec.cost === 'number' ? spec.cost : 0));
}

async function settle(deps: Deps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const state = request.meter;
  const spec = request.routeOptions.config.meter;
  if (state === undefined || spec === undefined || state.charged === undefined) return;
  // Nothing is acknowledged before its charge is durable.
  if (state.durable !== undefined) await state.durable;
  if (spec.settle !== undefined && state.charged > 0) {
    const final = Math.min(state.charged, Math.max(0, spec.settle(reply.statusCode, state.charged)));
    if (final < state.charged) {
      const balance = await creditWallet(deps.store, state.wallet.id, state.charged - final);
      state.charged = final;
      if (balance !== undefined) state.balance = balance;
    }
  }
  void reply.header('x-cost', String(state.charged));
  if (state.balance !== undefined) void reply.header('x-balance', String(state.balance));
}

export function registerMetering(app: FastifyInstance, deps: Deps): void {
  // Callback-style where the common case is synchronous: no promise per request for a cached wallet or the log.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config.meter === undefined) return done();
    const token = request.headers['x-token'];
    if (typeof token !== 'string' || token.length < MIN_TOKEN_LENGTH) return done(errors.unauthorized());
    const hash = sha256Hex(token);
    const cached = deps.wallets.cached(hash);
    if (cached !== undefined) {
      request.meter = { wallet: cached };
      return done();
    }
    deps.wallets.resolve(hash).then(
      (wallet) => {
        if (wallet === undefined) return done(errors.unauthorized());
        request.meter = { wallet };
        done();
      },
      (error: Error) => done(error),
    );
  });

  app.addHook('preValidation', async (request) => {
    const spec = request.routeOptions.config.meter;
    if (spec === undefined || request.meter === undefined) return;
    await charge(deps, request, typeof spec.cost === 'number' ? spec.cost : spec.cost(request));
    if (spec.durableBeforeHandler === true) await request.meter?.durable;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    try {
      await settle(deps, request, reply);
      return payload;
    } catch (error) {
      request.log.error({ err: error }, 'committing a charge failed');
      const state = request.meter;
      if (state !== undefined) {
        // Not committed, so not charged: the log must not say otherwise.
        state.charged = 0;
        state.error = errors.internal().body;
      }
      void reply.code(500).type('text/plain; charset=utf-8').removeHeader('x-cost').removeHeader('x-balance');
      return errors.internal().body;
    }
  });

  app.addHook('onResponse', (request, reply, done) => {
    const state = request.meter;
    const spec = request.routeOptions.config.meter;
    if (state === undefined || spec === undefined) return done();
    deps.logs.push({
      walletId: state.wallet.id,
      method: request.method,
      path: spec.logPath?.(request) ?? request.url,
      endpoint: spec.category,
      statusCode: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime),
      error: reply.statusCode >= 400 ? (state.error ?? 'Error') : undefined,
      cost: state.charged ?? 0,
      balance: state.balance ?? 0,
    });
    done();
  });
}
