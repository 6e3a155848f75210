import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useAppWith } from '../../fixtures/override-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { balanceOf, CHECKOUT_ENV, deliver, sessionEvent, useFakeStripe } from './stripe-fixtures.js';

describeEachStore('POST /billing/stripe/webhook: only a paid session credits', (kind) => {
  const stripe = useFakeStripe();
  const get = useAppWith(kind, () => ({ env: CHECKOUT_ENV, overrides: () => ({ stripe: stripe.client() }) }));

  it.each(['no_payment_required', 'unpaid'])(
    'a completed session with payment_status %s credits nothing',
    async (paymentStatus) => {
      const token = await get().createToken(5);
      const event = sessionEvent({
        eventId: `evt_${paymentStatus}`,
        sessionId: `cs_${paymentStatus}`,
        walletHash: sha256Hex(token),
        credits: 1_000_000,
        paymentStatus,
      });
      const res = await deliver(get(), event);
      expect([res.statusCode, res.json()]).toEqual([
        200,
        { received: true, credited: false, reason: `payment ${paymentStatus}` },
      ]);
      expect(await balanceOf(get(), token)).toBe(5);
    },
  );

  it('an async_payment_succeeded event that does not say paid credits nothing', async () => {
    const token = await get().createToken(5);
    const event = sessionEvent({
      eventId: 'evt_async_free',
      sessionId: 'cs_async_free',
      walletHash: sha256Hex(token),
      credits: 1_000_000,
      paymentStatus: 'no_payment_required',
      type: 'checkout.session.async_payment_succeeded',
    });
    expect((await deliver(get(), event)).json()).toMatchObject({
      credited: false,
      reason: 'payment no_payment_required',
    });
    expect(await balanceOf(get(), token)).toBe(5);
  });
});
