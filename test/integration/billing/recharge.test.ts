import { describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import type { TestApp } from '../../helpers/app.js';
import { useAppWith } from '../../fixtures/override-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import {
  CHECKOUT_ENV,
  deliver,
  PUBLIC_URL,
  sessionEvent,
  STRIPE_KEY,
  useFakeStripe,
  WEBHOOK_SECRET,
} from './stripe-fixtures.js';

const PLAIN = 'text/plain; charset=utf-8';

/**
 * The amounts the console is told it can offer (service.json), and those GET /recharge sells (a payment link, 200):
 * the wallet page offers exactly what can be paid, and nothing a click would answer 501.
 */
async function offeredAndSold(app: TestApp): Promise<{ offered: unknown; sold: string[] }> {
  const facts = await app.inject({ method: 'GET', url: '/console/service.json' });
  const token = await app.createToken(5);
  const sold: string[] = [];
  for (const amount of ['1', '3']) {
    const res = await app.inject({ method: 'GET', url: `/recharge?amount=${amount}`, headers: { 'x-token': token } });
    if (res.statusCode === 200) sold.push(amount);
  }
  return { offered: facts.json<{ rechargeAmounts: unknown }>().rechargeAmounts, sold };
}

describeEachStore('GET /recharge without Stripe', (kind) => {
  it('tells the console it sells nothing', async () => {
    expect(await offeredAndSold(get())).toEqual({ offered: [], sold: [] });
  });
  const get = useTestApp(kind);

  it('answers 501 Recharge is not configured, for free', async () => {
    const token = await get().createToken(5);
    const res = await get().inject({ method: 'GET', url: '/recharge', headers: { 'x-token': token } });
    expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([501, 'Recharge is not configured', PLAIN]);
    expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['0', '5']);
  });

  it.each(['2', '0', '1.5', '', 'one', '10'])('refuses amount=%s with 400', async (amount) => {
    const token = await get().createToken(5);
    const res = await get().inject({ method: 'GET', url: `/recharge?amount=${amount}`, headers: { 'x-token': token } });
    expect([res.statusCode, res.body]).toEqual([400, 'Invalid amount: must be 1 or 3']);
    expect(res.headers['x-cost']).toBe('0');
  });

  it('answers 501 to Stripe webhooks too', async () => {
    const payload = sessionEvent({ eventId: 'evt_1', sessionId: 'cs_1', walletHash: null, credits: 1_000_000 });
    const res = await deliver(get(), payload);
    expect([res.statusCode, res.body]).toEqual([501, 'Recharge is not configured']);
  });

  it('answers 401 without a token', async () => {
    const res = await get().inject({ method: 'GET', url: '/recharge' });
    expect([res.statusCode, res.body]).toEqual([401, 'Unauthorized']);
  });

  it('has a return page for the payer', async () => {
    const done = await get().inject({ method: 'GET', url: '/recharge/done' });
    expect([done.statusCode, done.headers['content-type']]).toEqual([200, PLAIN]);
    expect(done.body).toMatch(/payment was received/);
    expect((await get().inject({ method: 'GET', url: '/recharge/done?cancelled=1' })).body).toMatch(/cancelled/);
  });
});

describeEachStore('GET /recharge with Stripe Checkout', (kind) => {
  const stripe = useFakeStripe();
  const get = useAppWith(kind, () => ({ env: CHECKOUT_ENV, overrides: () => ({ stripe: stripe.client() }) }));

  it('tells the console it sells both amounts', async () => {
    expect(await offeredAndSold(get())).toEqual({ offered: ['1', '3'], sold: ['1', '3'] });
  });

  it.each([
    ['1', 'price_1m_test', '1000000'],
    ['3', 'price_3m_test', '3000000'],
  ])(
    'creates a Checkout Session for amount=%s with the wallet hash as client_reference_id',
    async (amount, price, credits) => {
      const token = await get().createToken(5);
      const before = stripe.api().requests.length;
      const res = await get().inject({
        method: 'GET',
        url: `/recharge?amount=${amount}`,
        headers: { 'x-token': token },
      });
      expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([
        200,
        'https://checkout.stripe.com/c/pay/cs_test_created',
        PLAIN,
      ]);
      expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['0', '5']);

      const request = stripe.api().requests[before];
      expect(request?.method).toBe('POST');
      expect(request?.path).toBe('/v1/checkout/sessions');
      expect(request?.headers.authorization).toBe(`Bearer ${STRIPE_KEY}`);
      const form = new URLSearchParams(request?.text);
      expect(form.get('mode')).toBe('payment');
      expect(form.get('client_reference_id')).toBe(sha256Hex(token));
      expect(form.get('line_items[0][price]')).toBe(price);
      expect(form.get('line_items[0][quantity]')).toBe('1');
      expect(form.get('metadata[credits]')).toBe(credits);
      expect(form.get('success_url')).toBe(`${PUBLIC_URL}/recharge/done`);
      expect(form.get('cancel_url')).toBe(`${PUBLIC_URL}/recharge/done?cancelled=1`);
      // The token itself never leaves the service.
      expect(request?.text).not.toContain(token);
    },
  );

  it('defaults to amount 1 and is logged under service', async () => {
    const token = await get().createToken(5);
    await get().inject({ method: 'GET', url: '/recharge', headers: { 'x-token': token } });
    const form = new URLSearchParams(stripe.api().requests.at(-1)?.text);
    expect(form.get('line_items[0][price]')).toBe('price_1m_test');
    const logs = (
      await get().inject({ method: 'GET', url: '/token/logs?n=1&type=service', headers: { 'x-token': token } })
    ).json().logs;
    expect(logs[0]).toMatchObject({
      method: 'GET',
      path: '/recharge',
      endpoint: 'service',
      status_code: 200,
      cost: 0,
      balance: 5,
    });
  });

  it('serves a wallet with no credits (the point of recharging)', async () => {
    const token = await get().createToken(0);
    const res = await get().inject({ method: 'GET', url: '/recharge?amount=3', headers: { 'x-token': token } });
    expect(res.statusCode).toBe(200);
  });

  it('answers 502 when Stripe fails', async () => {
    stripe.api().enqueue({
      status: 500,
      headers: { 'content-type': 'application/json' },
      body: '{"error":{"type":"api_error","message":"boom"}}',
    });
    const token = await get().createToken(5);
    const res = await get().inject({ method: 'GET', url: '/recharge', headers: { 'x-token': token } });
    expect([res.statusCode, res.body]).toEqual([
      502,
      'Payment provider unavailable: could not create the checkout session',
    ]);
    expect(res.headers['x-cost']).toBe('0');
  });
});

describeEachStore('GET /recharge with Payment Links', (kind) => {
  const get = useTestApp(kind, {
    env: { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_PAYMENT_LINK_1M: 'https://buy.stripe.com/test_1m?locale=en' },
  });

  it('tells the console it sells the amount with a link, and only that one', async () => {
    expect(await offeredAndSold(get())).toEqual({ offered: ['1'], sold: ['1'] });
  });

  it('answers the configured link with client_reference_id set to the wallet hash', async () => {
    const token = await get().createToken(5);
    const res = await get().inject({ method: 'GET', url: '/recharge?amount=1', headers: { 'x-token': token } });
    expect([res.statusCode, res.body]).toEqual([
      200,
      `https://buy.stripe.com/test_1m?locale=en&client_reference_id=${sha256Hex(token)}`,
    ]);
  });

  it('answers 501 for an amount without a link', async () => {
    const token = await get().createToken(5);
    const res = await get().inject({ method: 'GET', url: '/recharge?amount=3', headers: { 'x-token': token } });
    expect([res.statusCode, res.body]).toEqual([501, 'Recharge is not configured']);
  });
});

describeEachStore('GET /recharge without a webhook secret', (kind) => {
  const get = useTestApp(kind, { env: { STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_PRICE_1M: 'price_1m_test' } });

  it('tells the console it sells nothing', async () => {
    expect(await offeredAndSold(get())).toEqual({ offered: [], sold: [] });
  });

  describe('a payment that could never be credited', () => {
    it('is not offered: 501', async () => {
      const token = await get().createToken(5);
      const res = await get().inject({ method: 'GET', url: '/recharge', headers: { 'x-token': token } });
      expect([res.statusCode, res.body]).toEqual([501, 'Recharge is not configured']);
    });
  });
});
