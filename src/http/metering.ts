import { AsyncLocalStorage } from 'node:async_hooks';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CorePorts } from '../ports.js';
import { errors } from '../errors.js';
import type { ApiError } from '../errors.js';
import { sha256Hex } from '../lib/hash.js';
import type { ChargeOutcome, LogCategory, WalletRef } from '../ledger/ledger.js';
import { errorBody } from './error-body.js';
import { isStoreUnavailable } from '../store/store-errors.js';

/** Metering charges, refunds and logs through the ledger alone. */
type MeteringPorts = Pick<CorePorts, 'ledger'>;

/**
 * How a route is metered: declared once on the route (`config: { meter }`), carried out here.
 * Order: authenticate (onRequest, before the body is read) → charge (preValidation, so bad input still pays; or
 * by the handler's one statement, see paidByStatement) → handler → settle (refunds by status) and headers (onSend) →
 * log (onResponse).
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
  /**
   * The call writes nothing of the user's (a read): under READ_CHARGES=deferred its charge is answered, and
   * `durableBeforeHandler` satisfied, once committed; the fsync follows within READ_CHARGE_SYNC_MS.
   */
  readonly readOnly?: boolean;
  /**
   * The handler's one store statement pays for the call (a KV set, read or delete): where the store
   * commits a charge in the statement it pays for (ledger.paysInStatements), the charge is not made before the handler
   * but by that statement (see throughStatement), one round trip and one commit for both. A handler
   * that refuses before its statement is charged as a failed request is.
   */
  readonly paidByStatement?: boolean;
}

/** MeterSpec.settle of a call that keeps its charge unless the service failed it: a 5xx costs nothing (docs/contract.md#metering). */
export const refundServerErrors = (statusCode: number, charged: number): number => (statusCode >= 500 ? 0 : charged);

export interface MeterState {
  readonly wallet: WalletRef;
  /** The route's declaration, kept here so later steps need not rebuild `request.routeOptions` (an object per access). */
  readonly spec: MeterSpec;
  charged?: number;
  balance?: number;
  /** The plain-text error answered, for the log. */
  error?: string;
  /** This call's log row is recorded: by metering, or by the handler itself (a test delivery, through src/delivery-core). */
  logged?: boolean;
  /** Settles when the charge is durable (a read-only call's: committed); the response waits for it. */
  durable?: Promise<void>;
  /** The cost the handler's statement is to pay (MeterSpec.paidByStatement), until it has. */
  owed?: number;
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

type GoneOutcome = Extract<ChargeOutcome, { readonly reason: 'gone' }>;

/** The wallet was deleted meanwhile. */
const isGone = (outcome: ChargeOutcome): outcome is GoneOutcome => !outcome.ok && outcome.reason === 'gone';

/** A charge refused because the wallet is gone: forgotten, and the request is no longer metered (answered as unauthorized). */
function refuseGone(deps: MeteringPorts, request: FastifyRequest, state: MeterState): ApiError {
  deps.ledger.forgetWallet(state.wallet.hash);
  request.meter = undefined;
  return errors.unauthorized();
}

/** Records the outcome of a charge on a wallet that still exists: the refusal to answer, or undefined once charged. */
function applyCharge(
  state: MeterState,
  cost: number,
  outcome: Exclude<ChargeOutcome, GoneOutcome>,
): ApiError | undefined {
  if (!outcome.ok) {
    state.charged = 0;
    state.balance = outcome.balance;
    return errors.insufficientCredits();
  }
  state.charged = cost;
  state.balance = outcome.balance;
  state.durable = outcome.durable;
  return undefined;
}

/** What a statement that paid for the call answers: the charge's outcome and the statement's own result. */
export interface PaidCall<T> {
  readonly outcome: ChargeOutcome;
  readonly result: T;
}

/**
 * The handler's one statement (MeterSpec.paidByStatement): `paid`, given the cost, where metering left the charge to
 * it; `plain` where the call was charged before the handler (the store does not pay in statements). Records the
 * charge the statement made, and throws its refusal (402, or 401 when the wallet is gone).
 */
export async function throughStatement<T>(
  deps: MeteringPorts,
  request: FastifyRequest,
  plain: () => Promise<T>,
  paid: (owed: number) => Promise<PaidCall<T>>,
): Promise<T> {
  const state = request.meter;
  const owed = state !== undefined && state.charged === undefined ? state.owed : undefined;
  if (state === undefined || owed === undefined) return plain();
  const { outcome, result } = await paid(owed);
  const refused = isGone(outcome) ? refuseGone(deps, request, state) : applyCharge(state, owed, outcome);
  if (refused !== undefined) throw refused;
  return result;
}

/**
 * Draws one call from the wallet's free budget (the ledger's, one per wallet and instance): the 429 to answer
 * when it is spent. Every call that costs nothing draws here (`charge` below, and POST /mcp); paid calls never do.
 */
export function drawFreeCall(deps: MeteringPorts, walletId: number): ApiError | undefined {
  const waitMs = deps.ledger.takeFreeCall(walletId);
  return waitMs === 0 ? undefined : errors.tooManyRequests(waitMs / 1000);
}

/**
 * A free call its caller has drawn for a wallet before making calls for that wallet in-process: POST /mcp draws one
 * for the POST, and the first free route call of its tools uses that one rather than drawing a second.
 */
export interface DrawnFreeCall {
  readonly walletId: number;
  used: boolean;
}

const drawnAhead = new AsyncLocalStorage<DrawnFreeCall>();

/**
 * Runs `work`, whose first call that costs nothing for `drawn`'s wallet uses `drawn` instead of drawing again.
 * Awaited inside: app.inject's answer is a thenable that starts the call only once awaited, which must be in here.
 */
export function usingDrawnFreeCall<T>(drawn: DrawnFreeCall, work: () => PromiseLike<T>): Promise<T> {
  return drawnAhead.run(drawn, async () => await work());
}

/** drawFreeCall, unless the call is made in-process by a caller that has drawn it already (usingDrawnFreeCall). */
function drawFreeCallOnce(deps: MeteringPorts, walletId: number): ApiError | undefined {
  const drawn = drawnAhead.getStore();
  if (drawn === undefined || drawn.used || drawn.walletId !== walletId) return drawFreeCall(deps, walletId);
  drawn.used = true;
  return undefined;
}

/**
 * Charges the request once; `done` gets the refusal, if any. Synchronous when the ledger knows the
 * outcome at once (SQLite's common case), so a request pays for no promise it does not need.
 */
function charge(deps: MeteringPorts, request: FastifyRequest, cost: number, done: (error?: Error) => void): void {
  const state = request.meter;
  if (state === undefined || state.charged !== undefined) return done();
  const spent = cost === 0 ? drawFreeCallOnce(deps, state.wallet.id) : undefined;
  if (spent !== undefined) {
    // Answered from memory (the balance last known), so a free call beyond the budget costs no store work.
    state.charged = 0;
    state.balance = state.wallet.lastBalance;
    return done(spent);
  }
  const outcome = deps.ledger.charge(state.wallet.id, cost, state.spec.readOnly === true);
  if (outcome instanceof Promise) {
    outcome.then(
      (settled) => done(isGone(settled) ? refuseGone(deps, request, state) : applyCharge(state, cost, settled)),
      (error: Error) => done(error),
    );
  } else {
    done(isGone(outcome) ? refuseGone(deps, request, state) : applyCharge(state, cost, outcome));
  }
}

/**
 * Charges a request that failed before it was charged (an unparsable or oversized body; a paidByStatement handler that
 * refused before its statement): client errors pay, as docs/contract.md#metering says. A 401 has no wallet to charge and a
 * 5xx is ours (a charge that could not be made, say), so neither pays.
 */
export function chargeFailedRequest(deps: MeteringPorts, request: FastifyRequest, statusCode: number): Promise<void> {
  const state = request.meter;
  if (state === undefined || state.charged !== undefined || statusCode === 401) return Promise.resolve();
  if (statusCode >= 500) {
    // A statement that owed its charge and failed took nothing with it (one commit for both): nothing charged, as the answer says.
    if (state.owed !== undefined) noCharge(state);
    return Promise.resolve();
  }
  const cost = state.owed ?? state.spec.failureCost ?? (typeof state.spec.cost === 'number' ? state.spec.cost : 0);
  return new Promise((resolve, reject) =>
    charge(deps, request, cost, (error) => (error === undefined ? resolve() : reject(error))),
  );
}

function setCostHeaders(reply: FastifyReply, state: MeterState, cost: number): void {
  void reply.header('x-cost', String(cost));
  if (state.balance !== undefined) void reply.header('x-balance', String(state.balance));
}

/** The cost headers of an answer whose charge is settled (committed, refunded or refused): its balance is the wallet's last known from here on. */
function answerCost(reply: FastifyReply, state: MeterState, cost: number): void {
  setCostHeaders(reply, state, cost);
  if (state.balance !== undefined) state.wallet.lastBalance = state.balance;
}

/** What the final status keeps of the charge (MeterSpec.settle): the cost the answer reports. */
function finalCost(state: MeterState, settleCost: MeterSpec['settle'], statusCode: number): number {
  const charged = state.charged ?? 0;
  if (settleCost === undefined || charged === 0) return charged;
  return Math.min(charged, Math.max(0, settleCost(statusCode, charged)));
}

/** Gives back what the final status does not cost (finalCost below the charge), then sets the headers. */
async function refundTo(deps: MeteringPorts, state: MeterState, final: number, reply: FastifyReply): Promise<void> {
  // A refund, not a credit: it must not re-arm the low-balance incident its own charge raised.
  const balance = await deps.ledger.refund(state.wallet.id, (state.charged ?? 0) - final);
  state.charged = final;
  if (balance !== undefined) state.balance = balance;
  answerCost(reply, state, final);
}

/** Nothing charged for this call: the answer reports the wallet's balance last known, from memory (the store is not asked). */
function noCharge(state: MeterState): 0 {
  state.charged = 0;
  state.balance = state.wallet.lastBalance;
  return 0;
}

/** The answer while the store is away; its headers are constant, so one instance serves every answer. */
const STORE_AWAY = errors.storeUnavailable();

/**
 * Makes the reply the one 503 answered while the store is away (the database lost, the disk refusing commits)
 * and returns its body: plain text (or the route's error shape) with retry-after, and on a metered route
 * x-cost (0 unless a charge was committed before) and the wallet's last known x-balance, from memory: the
 * store is not asked. The error handler and metering's failed commits both answer with it.
 */
export function answerStoreAway(request: FastifyRequest, reply: FastifyReply): string {
  const body = errorBody(request, STORE_AWAY.statusCode, STORE_AWAY.body);
  void reply.code(STORE_AWAY.statusCode).type(body.type).headers(STORE_AWAY.headers).removeHeader('x-balance');
  const state = request.meter;
  if (state === undefined) {
    // A token whose wallet could not be looked up (the store was away already): nothing charged, no balance known.
    if (request.routeOptions.config.meter !== undefined) void reply.header('x-cost', '0');
    return body.text;
  }
  state.error = STORE_AWAY.body;
  setCostHeaders(reply, state, state.charged ?? noCharge(state));
  return body.text;
}

/**
 * Answers a request whose charge could not be committed (`committed` false: nothing was charged) or whose refund
 * could not be made (`committed` true: the charge stands, and the answer says so): the store away gets its 503,
 * anything else a 500 without cost headers. Returns the body.
 */
function answerFailedSettlement(
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  committed: boolean,
): string {
  request.log.error({ err: error }, committed ? 'refunding a charge failed' : 'committing a charge failed');
  const state = request.meter;
  if (state !== undefined && !committed) {
    // Not committed, so not charged: the log and the answer must not say otherwise.
    state.charged = undefined;
    state.balance = undefined;
  }
  if (isStoreUnavailable(error)) return answerStoreAway(request, reply);
  const answer = errors.internal();
  if (state !== undefined) {
    state.charged ??= 0;
    state.error = answer.body;
  }
  const body = errorBody(request, answer.statusCode, answer.body);
  void reply
    .code(answer.statusCode)
    .type(body.type)
    .headers(answer.headers)
    .removeHeader('x-cost')
    .removeHeader('x-balance');
  return body.text;
}

/** A route's hooks of one kind with `hook` added last (the route may declare none, one or several). */
export const withHook = <H>(existing: H | H[] | undefined, hook: H): H[] => [
  ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]),
  hook,
];

/**
 * Attaches the metering hooks to each metered route as it is declared, with its spec bound: unmetered
 * routes (health, docs, 404, 405) run none of them. Callback style where the common case is synchronous
 * (a cached wallet, the log), so a request pays for no promise it does not need.
 */
/** Told of an answer whose client was gone before it: Fastify ends such a request without its completion call. */
export type AbandonedAnswer = (request: FastifyRequest, reply: FastifyReply) => void;

export function registerMetering(
  app: FastifyInstance,
  deps: MeteringPorts,
  abandoned: AbandonedAnswer = () => undefined,
): void {
  app.addHook('onRoute', (route) => {
    const spec = route.config?.meter;
    if (spec === undefined) return;
    const hooks = meterHooks(deps, spec, abandoned);
    // New arrays: Fastify copies a GET route's options for its HEAD twin, which gets its own onRoute call.
    /* eslint-disable @typescript-eslint/unbound-method, @typescript-eslint/no-misused-promises -- the hooks use no `this` and are callback-style (they call `done`), not async */
    route.onRequest = withHook(route.onRequest, hooks.onRequest);
    route.preValidation = withHook(route.preValidation, hooks.preValidation);
    route.onSend = withHook(route.onSend, hooks.onSend);
    route.onResponse = withHook(route.onResponse, hooks.onResponse);
    /* eslint-enable @typescript-eslint/unbound-method, @typescript-eslint/no-misused-promises */
  });
}

function meterHooks(deps: MeteringPorts, spec: MeterSpec, abandoned: AbandonedAnswer) {
  const paidByStatement = spec.paidByStatement === true && deps.ledger.paysInStatements;
  /** Once the charge is durable: refunds by status where the route says so, sets the headers, lets the answer go. */
  const settle = (
    reply: FastifyReply,
    state: MeterState,
    payload: unknown,
    done: (error: Error | null, payload?: unknown) => void,
  ) => {
    const final = finalCost(state, spec.settle, reply.statusCode);
    // No promise for the common case, nothing to give back.
    if (final === (state.charged ?? 0)) {
      answerCost(reply, state, final);
      return done(null, payload);
    }
    refundTo(deps, state, final, reply).then(
      () => done(null, payload),
      (error: unknown) => done(null, answerFailedSettlement(reply.request, reply, error, true)),
    );
  };

  return {
    onRequest(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
      const token = request.headers['x-token'];
      if (typeof token !== 'string' || token.length < MIN_TOKEN_LENGTH) return done(errors.unauthorized());
      const hash = sha256Hex(token);
      const cached = deps.ledger.cachedWallet(hash);
      if (cached !== undefined) {
        request.meter = { wallet: cached, spec };
        return done();
      }
      deps.ledger.findWallet(hash).then(
        (wallet) => {
          if (wallet === undefined) return done(errors.unauthorized());
          request.meter = { wallet, spec };
          done();
        },
        (error: Error) => done(error),
      );
    },

    preValidation(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
      if (request.meter === undefined) return done();
      const cost = typeof spec.cost === 'number' ? spec.cost : spec.cost(request);
      if (paidByStatement && cost > 0) {
        request.meter.owed = cost;
        return done();
      }
      charge(deps, request, cost, (refused) => {
        const durable = spec.durableBeforeHandler === true ? request.meter?.durable : undefined;
        if (refused !== undefined || durable === undefined) return done(refused);
        durable.then(
          () => done(),
          (error: Error) => done(error),
        );
      });
    },

    onSend(
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      sendOn: (error: Error | null, payload?: unknown) => void,
    ): void {
      const state = request.meter;
      if (state === undefined) return sendOn(null, payload);
      // A client gone before its answer (it hung up while a fetch or a lookup ran) gets no onResponse from Fastify,
      // which waits for the answer to finish writing: its call, paid or refunded, is logged here, once settled, and
      // its access line written (`abandoned`). A closure only then: the common answer pays for none.
      const done = clientGone(request)
        ? (error: Error | null, settled?: unknown): void => {
            recordCall(deps, spec, request, reply);
            abandoned(request, reply);
            sendOn(error, settled);
          }
        : sendOn;
      if (state.charged === undefined) {
        // A handler that owed its statement's charge answered success without that statement: not given away, not hidden.
        if (state.owed !== undefined && reply.statusCode < 400)
          return done(
            null,
            answerFailedSettlement(request, reply, new Error('answered without the statement that pays'), false),
          );
        return done(null, payload);
      }
      // Nothing is acknowledged before its charge is durable.
      if (state.durable === undefined) return settle(reply, state, payload, done);
      state.durable.then(
        () => settle(reply, state, payload, done),
        (error: unknown) => done(null, answerFailedSettlement(request, reply, error, false)),
      );
    },

    onResponse(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
      recordCall(deps, spec, request, reply);
      done();
    },
  };
}

/** The connection the answer was to go to is closed (or was taken from the request). */
export function clientGone(request: FastifyRequest): boolean {
  const socket = request.raw.socket as Socket | null;
  return socket === null || socket.destroyed;
}

/** The call's log entry, once: paid calls always; free and refused ones within the ledger's per-wallet budget. */
function recordCall(deps: MeteringPorts, spec: MeterSpec, request: FastifyRequest, reply: FastifyReply): void {
  const state = request.meter;
  if (state === undefined || state.logged === true) return;
  state.logged = true;
  deps.ledger.record({
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
}

/** Adds `x-cost: 0` and `x-balance` to a refusal answered before any route ran; never throws, never charges. */
export type RefusalCostHeaders = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Refusals given before routing (a path the router cannot decode, 404, 405) ran no route, so they charge nothing;
 * yet on a metered route's path (`/kv/…`, `/token…`) a valid token's answer still carries `x-cost: 0` and `x-balance`,
 * as every answer of an authenticated endpoint does (docs/contract.md#metering). The work is what a free route does: the wallet
 * lookup (cached) and a balance read; nothing is written or logged. A missing or unknown token, or a store that does
 * not answer, leaves the refusal as it is (never a 401 or a 503 in its place). `track` must run before routes are added.
 */
export function refusalMetering(deps: MeteringPorts): {
  track(app: FastifyInstance): void;
  headers: RefusalCostHeaders;
} {
  const meteredSegments = new Set<string>();
  const firstSegment = (url: string): string => {
    // The absolute form (`GET http://host/kv/…`) is routed by its path.
    const path = url.startsWith('/') ? url : url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
    const end = path.slice(1).search(/[/?#]/);
    return end === -1 ? path.slice(1) : path.slice(1, end + 1);
  };
  return {
    track(app) {
      app.addHook('onRoute', (route) => {
        if (route.config?.meter !== undefined) meteredSegments.add(firstSegment(route.url));
      });
    },
    async headers(request, reply) {
      const token = request.headers['x-token'];
      if (
        typeof token !== 'string' ||
        token.length < MIN_TOKEN_LENGTH ||
        !meteredSegments.has(firstSegment(request.url))
      )
        return;
      try {
        const hash = sha256Hex(token);
        const wallet = deps.ledger.cachedWallet(hash) ?? (await deps.ledger.findWallet(hash));
        if (wallet === undefined) return;
        const balance = await deps.ledger.balanceOf(wallet.id);
        if (balance === 'gone') return;
        void reply.header('x-cost', '0').header('x-balance', String(balance));
      } catch (error) {
        request.log.debug({ err: error }, 'no balance for a refusal');
      }
    },
  };
}
