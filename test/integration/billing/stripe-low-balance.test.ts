import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useAppWith } from '../../fixtures/override-app.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { putSettings, spendCredits } from '../../helpers/low-balance.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { sendPendingLowBalance } from '../../../src/features/settings/low-balance-notifier.js';
import { CHECKOUT_ENV, deliver, sessionEvent, useFakeStripe } from './stripe-fixtures.js';

describeEachStore('a Stripe recharge and the low-balance incident', (kind) => {
  const stripe = useFakeStripe();
  const outbound = useOutboundFixture();
  const get = useAppWith(kind, () => ({
    env: { ...CHECKOUT_ENV, ...outbound.env },
    overrides: () => ({ stripe: stripe.client() }),
  }));

  it('re-arms the wallet and resets the cooldown: the next crossing within the hour is notified at once', async () => {
    const token = await get().createToken(1_000_000);
    await putSettings(get(), token, {
      low_balance_threshold: 1_999_990,
      low_balance_webhook: { url: outbound.url('/recharged') },
    }); // 999,999
    expect(await spendCredits(get(), token, 1)).toBe(999_998); // at or below: notified
    await sendPendingLowBalance(get().deps);
    const paid = await deliver(
      get(),
      sessionEvent({
        eventId: 'evt_low_balance',
        sessionId: 'cs_low_balance',
        walletHash: sha256Hex(token),
        credits: 1_000_000,
      }),
    );
    expect(paid.json()).toMatchObject({ credited: true });
    expect(await spendCredits(get(), token, 8)).toBe(1_999_990); // crosses again
    await sendPendingLowBalance(get().deps);
    expect(outbound.requestsTo('/recharged').map((request) => JSON.parse(request.text).wallet)).toEqual([
      999_998, 1_999_990,
    ]);
  });
});
