import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { walletIdOf } from '../../helpers/app.js';
import { INSUFFICIENT_CREDITS } from '../../../src/errors.js';
import type { ChargeOutcome } from '../../../src/ledger/ledger.js';

// The ledger's API as its clients (metering, scheduler, mail, billing, operator API) use it.
describeEachStore('the ledger', (kind) => {
  const testApp = useTestApp(kind);

  const flags = async (walletId: number) =>
    testApp().deps.store.read.get<{ balance: number; lb_pending: number; lb_armed: number }>(
      'SELECT balance, lb_pending, lb_armed FROM wallets WHERE id = $1',
      [walletId],
    );

  it('a charge that crosses the threshold raises the incident; a refund withdraws it, a credit re-arms', async () => {
    const { ledger } = testApp().deps;
    const walletId = await walletIdOf(testApp().deps, await testApp().createToken(100));
    await ledger.updateLowBalanceSettings(walletId, { threshold: 50 });
    const charged: ChargeOutcome = await ledger.charge(walletId, 60);
    expect(charged).toMatchObject({ ok: true, balance: 40 });
    if (charged.ok) await charged.durable;
    expect(await flags(walletId)).toEqual({ balance: 40, lb_pending: 1, lb_armed: 0 });
    expect(await ledger.refund(walletId, 60)).toBe(100);
    expect(await flags(walletId)).toEqual({ balance: 100, lb_pending: 0, lb_armed: 1 });
    const again: ChargeOutcome = await ledger.charge(walletId, 60);
    if (again.ok) await again.durable;
    await testApp().deps.store.write(async (tx) => ledger.creditIn(tx, walletId, 5));
    expect(await flags(walletId)).toEqual({ balance: 45, lb_pending: 1, lb_armed: 0 });
    expect(await ledger.credit(walletId, 10)).toBe(55);
    expect(await flags(walletId)).toEqual({ balance: 55, lb_pending: 1, lb_armed: 1 });
  });

  it('refuses a charge the balance does not cover, in a unit of work too, and reports a wallet that is gone', async () => {
    const { ledger, store } = testApp().deps;
    const walletId = await walletIdOf(testApp().deps, await testApp().createToken(3));
    expect(await ledger.charge(walletId, 5)).toEqual({ ok: false, reason: 'insufficient', balance: 3 });
    expect(await store.write((tx) => ledger.chargeIn(tx, walletId, 5))).toEqual({ ok: false, balance: 3 });
    expect(await store.write((tx) => ledger.chargeIn(tx, walletId, 2))).toEqual({ ok: true, balance: 1 });
    expect(await ledger.charge(walletId + 1_000_000, 1)).toEqual({ ok: false, reason: 'gone' });
    expect(await ledger.credit(walletId + 1_000_000, 1)).toBeUndefined();
  });

  it('balanceOf reads the balance with a charge answered but not yet durable, writes nothing, and says gone for a wallet that is gone', async () => {
    const { ledger } = testApp().deps;
    const walletId = await walletIdOf(testApp().deps, await testApp().createToken(100));
    await ledger.updateLowBalanceSettings(walletId, { threshold: 80 });
    const charged = await ledger.charge(walletId, 30);
    expect(await ledger.balanceOf(walletId)).toBe(70);
    if (charged.ok) await charged.durable;
    expect(await ledger.balanceOf(walletId)).toBe(70);
    expect(await flags(walletId)).toEqual({ balance: 70, lb_pending: 1, lb_armed: 0 });
    expect(await ledger.balanceOf(walletId + 1_000_000)).toBe('gone');
  });

  it('records a refused delivery as a 402 webhook-delivery row the owner reads in GET /token/logs', async () => {
    const token = await testApp().createToken(7);
    const walletId = await walletIdOf(testApp().deps, token);
    testApp().deps.ledger.recordRefusal(walletId, 'hook-1', 7);
    const response = await testApp().inject({
      method: 'GET',
      url: '/token/logs?type=webhook-delivery',
      headers: { 'x-token': token },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().logs).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: 'hook-1',
        endpoint: 'webhook-delivery',
        status_code: 402,
        error: INSUFFICIENT_CREDITS,
        cost: 0,
        balance: 7,
      }),
    ]);
  });
});
