import { describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useAppWith } from '../../fixtures/override-app.js';
import type { TestApp } from '../../helpers/app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { balanceOf, CHECKOUT_ENV, deliver, sessionEvent, sign, useFakeStripe } from './stripe-fixtures.js';

const PLAIN = 'text/plain; charset=utf-8';

async function creditedRows(t: TestApp, sessionId: string): Promise<number> {
  const row = await t.deps.store.read.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM stripe_credits WHERE session_id = $1',
    [sessionId],
  );
  return Number(row?.n ?? 0);
}

async function serviceLogs(t: TestApp, token: string) {
  const res = await t.inject({ method: 'GET', url: '/token/logs?n=10&type=service', headers: { 'x-token': token } });
  return res.json().logs as Array<Record<string, unknown>>;
}

describeEachStore('POST /billing/stripe/webhook', (kind) => {
  const stripe = useFakeStripe();
  const get = useAppWith(kind, () => ({ env: CHECKOUT_ENV, overrides: () => ({ stripe: stripe.client() }) }));
  let counter = 0;
  const ids = () => {
    counter += 1;
    return { eventId: `evt_test_${counter}`, sessionId: `cs_test_${counter}` };
  };

  describe('a valid signed event', () => {
    it.each([1_000_000, 3_000_000])('credits %i to the wallet of client_reference_id', async (credits) => {
      const token = await get().createToken(5);
      const res = await deliver(get(), sessionEvent({ ...ids(), walletHash: sha256Hex(token), credits }));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ received: true, credited: true, credits });
      expect(await balanceOf(get(), token)).toBe(5 + credits);
    });

    it('is logged in the wallet log under service, with the new balance', async () => {
      const token = await get().createToken(5);
      await deliver(get(), sessionEvent({ ...ids(), walletHash: sha256Hex(token), credits: 1_000_000 }));
      const [entry] = await serviceLogs(get(), token);
      expect(entry).toMatchObject({
        method: 'POST',
        path: '/billing/stripe/webhook',
        endpoint: 'service',
        status_code: 200,
        cost: 0,
        balance: 1_000_005,
      });
    });

    it('makes the recharged wallet usable at once (cached wallet, new balance)', async () => {
      const token = await get().createToken(0);
      expect((await get().inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).statusCode).toBe(
        402,
      );
      await deliver(get(), sessionEvent({ ...ids(), walletHash: sha256Hex(token), credits: 1_000_000 }));
      const info = await get().inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
      expect([info.statusCode, info.json().wallet]).toEqual([200, 999_999]);
    });

    it('takes the credits from the line items when the session has no credits metadata', async () => {
      const token = await get().createToken(5);
      const res = await deliver(
        get(),
        sessionEvent({ eventId: 'evt_line_items', sessionId: 'cs_line_3m', walletHash: sha256Hex(token) }),
      );
      expect(res.json()).toEqual({ received: true, credited: true, credits: 3_000_000 });
      expect(
        stripe.api().requests.some((request) => request.path.startsWith('/v1/checkout/sessions/cs_line_3m/line_items')),
      ).toBe(true);
    });
  });

  describe('exactly once per session', () => {
    it('credits a replayed event once', async () => {
      const token = await get().createToken(5);
      const event = ids();
      const payload = sessionEvent({ ...event, walletHash: sha256Hex(token), credits: 1_000_000 });
      expect((await deliver(get(), payload)).json()).toMatchObject({ credited: true });
      const replay = await deliver(get(), payload);
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual({ received: true, credited: false, reason: 'already-credited' });
      expect(await balanceOf(get(), token)).toBe(1_000_005);
      expect(await creditedRows(get(), event.sessionId)).toBe(1);
      expect(await serviceLogs(get(), token)).toHaveLength(1);
    });

    it('credits once when the same event arrives many times at once', async () => {
      const token = await get().createToken(5);
      const payload = sessionEvent({ ...ids(), walletHash: sha256Hex(token), credits: 3_000_000 });
      const answers = await Promise.all(Array.from({ length: 8 }, () => deliver(get(), payload)));
      expect(answers.map((res) => res.statusCode)).toEqual(new Array(8).fill(200));
      expect(answers.filter((res) => res.json().credited === true)).toHaveLength(1);
      expect(await balanceOf(get(), token)).toBe(3_000_005);
    });

    it('credits a session once across its events: completed (unpaid), then async payment succeeded, then a replay', async () => {
      const token = await get().createToken(5);
      const { sessionId } = ids();
      const hash = sha256Hex(token);
      const pending = await deliver(
        get(),
        sessionEvent({
          eventId: `${sessionId}_a`,
          sessionId,
          walletHash: hash,
          credits: 1_000_000,
          paymentStatus: 'unpaid',
        }),
      );
      expect(pending.json()).toEqual({ received: true, credited: false, reason: 'payment unpaid' });
      expect(await balanceOf(get(), token)).toBe(5);
      const paid = sessionEvent({
        eventId: `${sessionId}_b`,
        sessionId,
        walletHash: hash,
        credits: 1_000_000,
        type: 'checkout.session.async_payment_succeeded',
      });
      expect((await deliver(get(), paid)).json()).toMatchObject({ credited: true });
      const other = sessionEvent({ eventId: `${sessionId}_c`, sessionId, walletHash: hash, credits: 1_000_000 });
      expect((await deliver(get(), other)).json()).toMatchObject({ credited: false, reason: 'already-credited' });
      expect(await balanceOf(get(), token)).toBe(1_000_005);
    });
  });

  describe('events that credit nothing but are acknowledged', () => {
    it('an unknown session: client_reference_id of no wallet', async () => {
      const event = ids();
      const res = await deliver(
        get(),
        sessionEvent({
          ...event,
          walletHash: sha256Hex('coin_nobody-has-this-token-000000000000000000'),
          credits: 1_000_000,
        }),
      );
      expect([res.statusCode, res.json()]).toEqual([
        200,
        { received: true, credited: false, reason: 'unknown wallet' },
      ]);
      expect(await creditedRows(get(), event.sessionId)).toBe(0);
    });

    it('a session without client_reference_id', async () => {
      const res = await deliver(get(), sessionEvent({ ...ids(), walletHash: null, credits: 1_000_000 }));
      expect(res.json()).toEqual({ received: true, credited: false, reason: 'unknown wallet' });
    });

    it('a session for a product that is not ours', async () => {
      const token = await get().createToken(5);
      const res = await deliver(
        get(),
        sessionEvent({
          eventId: 'evt_other_product',
          sessionId: 'cs_other_product',
          walletHash: sha256Hex(token),
          credits: 42,
        }),
      );
      expect(res.json()).toEqual({ received: true, credited: false, reason: 'unknown product' });
      expect(await balanceOf(get(), token)).toBe(5);
    });

    it('other event types', async () => {
      const token = await get().createToken(5);
      const res = await deliver(
        get(),
        sessionEvent({ ...ids(), walletHash: sha256Hex(token), credits: 1_000_000, type: 'checkout.session.expired' }),
      );
      expect(res.json()).toEqual({ received: true, credited: false, reason: 'ignored checkout.session.expired' });
      expect(await balanceOf(get(), token)).toBe(5);
    });
  });

  describe('400 for an event whose signature does not verify', () => {
    const cases: Array<[string, (payload: string) => string | null, (payload: string) => string]> = [
      ['a missing stripe-signature header', () => null, (payload) => payload],
      [
        'a signature made with another secret',
        (payload) => sign(payload, { secret: 'whsec_someone_else' }),
        (payload) => payload,
      ],
      ['a body changed after signing', (payload) => sign(payload), (payload) => payload.replace('1000000', '3000000')],
      [
        'a timestamp older than five minutes',
        (payload) => sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
        (payload) => payload,
      ],
      ['a garbage header', () => 't=abc,v1=def', (payload) => payload],
    ];
    it.each(cases)('refuses %s and credits nothing', async (_name, signature, body) => {
      const token = await get().createToken(5);
      const payload = sessionEvent({ ...ids(), walletHash: sha256Hex(token), credits: 1_000_000 });
      const res = await deliver(get(), body(payload), signature(payload));
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe(PLAIN);
      expect(res.body).toMatch(/^(Invalid stripe-signature|Missing stripe-signature header)$/);
      expect(await balanceOf(get(), token)).toBe(5);
    });
  });
});
