import { afterAll, beforeAll } from 'vitest';
import Stripe from 'stripe';
import type { LightMyRequestResponse } from 'fastify';
import { startHttpsReceiver } from '../../helpers/https-receiver.js';
import type { HttpsReceiver, ReceivedRequest, ScriptedResponse } from '../../helpers/https-receiver.js';
import type { TestApp } from '../../helpers/app.js';

export const WEBHOOK_SECRET = 'whsec_test_secret_for_coinop';
export const STRIPE_KEY = 'sk_test_coinop_fake';
export const PUBLIC_URL = 'https://coinop.test';
export const CHECKOUT_ENV = {
  STRIPE_SECRET_KEY: STRIPE_KEY,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_PRICE_1M: 'price_1m_test',
  STRIPE_PRICE_3M: 'price_3m_test',
  PUBLIC_URL,
};

const json = (body: unknown, status = 200): ScriptedResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** The part of the Stripe API the service uses, faked on loopback (plain HTTP). */
function fakeStripe(request: ReceivedRequest): ScriptedResponse {
  const path = request.path.split('?')[0] ?? '';
  if (request.method === 'POST' && path === '/v1/checkout/sessions') {
    return json({
      id: 'cs_test_created',
      object: 'checkout.session',
      url: 'https://checkout.stripe.com/c/pay/cs_test_created',
      mode: 'payment',
    });
  }
  const lineItems = /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/.exec(path);
  if (request.method === 'GET' && lineItems !== null) {
    const price = lineItems[1] === 'cs_line_3m' ? 'price_3m_test' : 'price_unknown';
    return json({
      object: 'list',
      url: path,
      has_more: false,
      data: [{ id: 'li_1', object: 'item', quantity: 1, price: { id: price, object: 'price' } }],
    });
  }
  return json({ error: { type: 'invalid_request_error', message: `no fake for ${request.method} ${path}` } }, 404);
}

/** A fake Stripe API and a client pointed at it (for DepsOverrides.stripe). */
export function useFakeStripe(): { api: () => HttpsReceiver; client: () => Stripe } {
  let api: HttpsReceiver | undefined;
  beforeAll(async () => {
    api = await startHttpsReceiver({ protocol: 'http', responder: fakeStripe });
  });
  afterAll(async () => {
    await api?.close();
  });
  const started = () => {
    if (api === undefined) throw new Error('fake Stripe not started');
    return api;
  };
  return {
    api: started,
    client: () =>
      new Stripe(STRIPE_KEY, { host: '127.0.0.1', port: started().port, protocol: 'http', maxNetworkRetries: 0 }),
  };
}

export interface SessionEvent {
  eventId: string;
  sessionId: string;
  /** client_reference_id; omitted when null. */
  walletHash: string | null;
  credits?: number;
  type?: string;
  paymentStatus?: string;
}

export function sessionEvent(event: SessionEvent): string {
  return JSON.stringify({
    id: event.eventId,
    object: 'event',
    api_version: '2025-01-27.acacia',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: event.type ?? 'checkout.session.completed',
    data: {
      object: {
        id: event.sessionId,
        object: 'checkout.session',
        mode: 'payment',
        client_reference_id: event.walletHash,
        metadata: event.credits === undefined ? {} : { credits: String(event.credits) },
        payment_status: event.paymentStatus ?? 'paid',
        status: 'complete',
        amount_total: 1000,
        currency: 'eur',
      },
    },
  });
}

export function sign(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: options.timestamp,
  });
}

/** POST the event as Stripe would; `signature: null` sends no stripe-signature header. */
export function deliver(
  t: TestApp,
  payload: string,
  signature: string | null = sign(payload),
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (signature !== null) headers['stripe-signature'] = signature;
  return t.inject({ method: 'POST', url: '/billing/stripe/webhook', headers, payload });
}

export { balanceOf } from '../../helpers/app.js';
