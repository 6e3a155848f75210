import type Stripe from 'stripe';
import { requireOnDemand } from '../../lib/require-on-demand.js';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { creditStripeSession } from './billing.queries.js';
import { creditsOfMetadata, creditsOfPrice, RECHARGE_AMOUNTS, rechargeRoute } from './recharge-plans.js';
import type { RechargeAmount } from './recharge-plans.js';

/** Where Stripe sends the payer back; both answer a short plain-text page (see billing.routes.ts). */
export const RECHARGE_DONE_PATH = '/recharge/done';
export const WEBHOOK_PATH = '/billing/stripe/webhook';

type BillingDeps = Pick<Deps, 'config' | 'stripe' | 'store' | 'ledger' | 'clock' | 'logger'>;

/** The amounts rechargeLink can sell here: those with a route, and Stripe's client for a Checkout route (else 501). */
export function offeredRechargeAmounts(deps: Pick<BillingDeps, 'config' | 'stripe'>): RechargeAmount[] {
  return RECHARGE_AMOUNTS.filter((amount) => {
    const route = rechargeRoute(deps.config.stripe, amount);
    return route !== undefined && (route.kind === 'payment-link' || deps.stripe !== undefined);
  });
}

/**
 * The payment link for one recharge, with the wallet hash as `client_reference_id` (never the token).
 * 501 when recharge is not configured for this amount; 502 when Stripe cannot create the session.
 */
export async function rechargeLink(deps: BillingDeps, amount: RechargeAmount, walletHash: string): Promise<string> {
  const route = rechargeRoute(deps.config.stripe, amount);
  if (route === undefined) throw errors.rechargeNotConfigured();
  if (route.kind === 'payment-link') {
    const url = new URL(route.url);
    url.searchParams.set('client_reference_id', walletHash);
    return url.href;
  }
  if (deps.stripe === undefined) throw errors.rechargeNotConfigured();
  let session: Stripe.Checkout.Session;
  try {
    session = await deps.stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: route.price, quantity: 1 }],
      client_reference_id: walletHash,
      metadata: { wallet_hash: walletHash, credits: String(route.credits) },
      success_url: `${deps.config.publicUrl}${RECHARGE_DONE_PATH}`,
      cancel_url: `${deps.config.publicUrl}${RECHARGE_DONE_PATH}?cancelled=1`,
    });
  } catch (error) {
    deps.logger.error({ err: error }, 'creating a Stripe Checkout Session failed');
    throw errors.badGateway('Payment provider unavailable: could not create the checkout session');
  }
  if (session.url === null || session.url === undefined)
    throw errors.badGateway('Payment provider unavailable: no checkout URL returned');
  return session.url;
}

/** The verified event, or 400 for a missing or wrong signature (or a stale timestamp). */
export function verifyStripeEvent(
  deps: BillingDeps,
  rawBody: Buffer,
  signature: string | string[] | undefined,
): Stripe.Event {
  const secret = deps.config.stripe.webhookSecret;
  if (secret === undefined) throw errors.rechargeNotConfigured();
  if (typeof signature !== 'string' || signature === '') throw errors.badRequest('Missing stripe-signature header');
  try {
    return requireOnDemand<typeof Stripe>('stripe').webhooks.constructEvent(
      rawBody,
      signature,
      secret,
      undefined,
      undefined,
      deps.clock.now(),
    );
  } catch {
    throw errors.badRequest('Invalid stripe-signature');
  }
}

export type WebhookOutcome =
  | { readonly credited: true; readonly credits: number; readonly balance: number }
  | { readonly credited: false; readonly reason: string };

/** Credits of a completed session: our metadata, else (Checkout with our prices) its line items. */
async function creditsOf(deps: BillingDeps, session: Stripe.Checkout.Session): Promise<number | undefined> {
  const fromMetadata = creditsOfMetadata(session.metadata);
  if (fromMetadata !== undefined || deps.stripe === undefined) return fromMetadata;
  const items = await deps.stripe.checkout.sessions.listLineItems(session.id, { limit: 10 });
  let credits = 0;
  for (const item of items.data) {
    const perUnit = item.price === null ? undefined : creditsOfPrice(deps.config.stripe, item.price.id);
    if (perUnit === undefined) return undefined;
    credits += perUnit * (item.quantity ?? 1);
  }
  return credits > 0 ? credits : undefined;
}

/**
 * Only `paid` credits: `no_payment_required` means no money moved (a 100 % discount or a zero amount),
 * and `unpaid` waits for `async_payment_succeeded`, whose session then says `paid`.
 */
const PAID = 'paid';

/**
 * A verified Stripe event. `checkout.session.completed` (when paid) and
 * `checkout.session.async_payment_succeeded` credit the wallet named by `client_reference_id`, once per
 * session; the credit is logged in that wallet's log with category `service`. Everything else is acknowledged.
 */
export async function handleStripeEvent(
  deps: BillingDeps,
  event: Stripe.Event,
  startedAt: number,
): Promise<WebhookOutcome> {
  if (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.async_payment_succeeded') {
    return { credited: false, reason: `ignored ${event.type}` };
  }
  const session = event.data.object;
  if (session.payment_status !== PAID) return { credited: false, reason: `payment ${session.payment_status}` };
  const hash = session.client_reference_id ?? '';
  const wallet = /^[0-9a-f]{64}$/.test(hash) ? await deps.ledger.walletByHash(hash) : undefined;
  if (wallet === undefined) {
    deps.logger.warn({ session: session.id, event: event.id }, 'Stripe payment for no known wallet');
    return { credited: false, reason: 'unknown wallet' };
  }
  const credits = await creditsOf(deps, session);
  if (credits === undefined) {
    deps.logger.warn({ session: session.id, event: event.id }, 'Stripe payment for an unknown product');
    return { credited: false, reason: 'unknown product' };
  }
  const now = deps.clock.now();
  const outcome = await creditStripeSession(deps, {
    sessionId: session.id,
    eventId: event.id,
    walletId: wallet.id,
    credits,
    at: now,
  });
  if (!outcome.credited) return outcome;
  deps.ledger.recordAlways({
    walletId: wallet.id,
    method: 'POST',
    path: WEBHOOK_PATH,
    endpoint: 'service',
    statusCode: 200,
    responseTimeMs: Math.max(0, Math.round(now - startedAt)),
    cost: 0,
    balance: outcome.balance,
  });
  return { credited: true, credits, balance: outcome.balance };
}
