import { beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { ManualClock } from '../../helpers/app.js';
import { MINUTE } from '../../../src/lib/time.js';
import { sendPendingLowBalance } from '../../../src/features/settings/low-balance-notifier.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { operatorCredit, putSettings, spendCredits } from '../../helpers/low-balance.js';

const START = Date.parse('2026-06-01T12:00:00.000Z');
const ADMIN_TOKEN = 'admin-token-for-rate-limit-tests';

/**
 * A new threshold re-arms the incident for free, so those re-arms are held to one notification per wallet per
 * hour; a real credit is paid for and re-arms as the incident's states say, its cooldown reset.
 */
describeEachStore('low-balance notifications: the hourly limit on free re-arms', (kind) => {
  const clock = new ManualClock(START);
  const outbound = useOutboundFixture();
  const testApp = useTestApp(kind, { clock, env: { ...outbound.env, ADMIN_TOKEN } });
  let token: string;
  let path: string;
  let n = 0;
  beforeEach(async () => {
    clock.set(START);
    token = await testApp().createToken(100);
    path = `/limited/${++n}`;
  });
  const wallets = () => outbound.requestsTo(path).map((request) => JSON.parse(request.text).wallet as number);
  const send = () => sendPendingLowBalance(testApp().deps);
  const put = (settings: Record<string, unknown>) => putSettings(testApp(), token, settings);
  const spend = (times: number) => spendCredits(testApp(), token, times);
  const credit = (amount: number) => operatorCredit(testApp(), ADMIN_TOKEN, token, amount);

  it('notifies a second crossing within the hour at once when a real credit re-armed the wallet', async () => {
    await put({ low_balance_threshold: 95, low_balance_webhook: { url: outbound.url(path) } }); // 99
    expect(await spend(4)).toBe(95);
    await send();
    expect(wallets()).toEqual([95]);

    expect(await credit(20)).toBe(115); // above the threshold: armed, cooldown reset
    clock.advance(5 * MINUTE);
    expect(await spend(21)).toBe(94); // crosses again
    expect(await send()).toMatchObject({ handled: 1, webhooks: 1 });
    expect(wallets()).toEqual([95, 94]);

    // A credit that leaves the balance at or below the threshold is no re-arm, so no reset either.
    expect(await credit(1)).toBe(95);
    expect(await spend(1)).toBe(94);
    expect((await send()).handled).toBe(0);
    expect(wallets()).toEqual([95, 94]);
  });

  it('holds back a crossing re-armed by a threshold edit within the hour, and sends it once the hour has passed', async () => {
    await put({ low_balance_threshold: 95, low_balance_webhook: { url: outbound.url(path) } }); // 99
    expect(await spend(4)).toBe(95);
    await send();
    expect(wallets()).toEqual([95]);

    await put({ low_balance_threshold: 90 }); // 94: re-armed for free
    expect(await spend(4)).toBe(90); // crosses again
    clock.advance(30 * MINUTE);
    expect((await send()).handled).toBe(0);
    clock.advance(30 * MINUTE - 1);
    expect((await send()).handled).toBe(0);
    expect(wallets()).toEqual([95]);
    clock.advance(1);
    expect(await send()).toMatchObject({ handled: 1, webhooks: 1 });
    expect(wallets()).toEqual([95, 90]);
  });

  it('drops a held-back incident when a real credit lifts the balance above the threshold', async () => {
    await put({ low_balance_threshold: 95, low_balance_webhook: { url: outbound.url(path) } });
    await spend(4); // 95
    await send();
    await put({ low_balance_threshold: 90 }); // 94
    await spend(4); // 90: held back
    await credit(50); // 140: no longer low
    expect(await send()).toEqual({ handled: 1, webhooks: 0, emails: 0 });
    expect(wallets()).toEqual([95]);
  });

  it('sends one notification an hour however often threshold edits up and down re-arm the wallet', async () => {
    await put({ low_balance_webhook: { url: outbound.url(path) } });
    for (let i = 0; i < 5; i++) {
      // Up to the balance: the next charge crosses; down and up again: re-armed each time, no credit paid.
      const balance = await spend(1);
      await put({ low_balance_threshold: balance });
      await spend(1);
      await send();
      await put({ low_balance_threshold: 1 });
      await put({ low_balance_threshold: balance + 50 });
      await spend(1);
      await send();
      clock.advance(10 * MINUTE);
    }
    expect(wallets()).toHaveLength(1);
    clock.advance(10 * MINUTE);
    await send();
    expect(wallets()).toHaveLength(2);
  });

  it('does not let held-back wallets delay a wallet whose notification is due', async () => {
    await put({ low_balance_threshold: 95, low_balance_webhook: { url: outbound.url(path) } });
    await spend(4);
    await send();
    await put({ low_balance_threshold: 90 });
    await spend(5); // this wallet is held back for the hour
    const other = await testApp().createToken(100);
    const otherPath = `${path}-other`;
    await putSettings(testApp(), other, {
      low_balance_threshold: 98,
      low_balance_webhook: { url: outbound.url(otherPath) },
    });
    await spendCredits(testApp(), other, 1);
    expect(await send()).toMatchObject({ handled: 1, webhooks: 1 });
    expect(outbound.requestsTo(otherPath)).toHaveLength(1);
  });
});
