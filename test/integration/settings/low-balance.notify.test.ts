import { beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { ManualClock, walletIdOf } from '../../helpers/app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { MINUTE } from '../../../src/lib/time.js';
import { sendPendingLowBalance, startLowBalanceNotifier } from '../../../src/features/settings/low-balance-notifier.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { operatorCredit, putSettings, spendCredits } from '../../helpers/low-balance.js';

const START = Date.parse('2026-06-01T12:00:00.000Z');
const ADMIN_TOKEN = 'admin-token-for-low-balance-tests';
const PUBLIC_URL = 'https://coinop.example';

describeEachStore('low-balance notifications', (kind) => {
  const clock = new ManualClock(START);
  const outbound = useOutboundFixture();
  const testApp = useTestApp(kind, { clock, env: { ...outbound.env, ADMIN_TOKEN, PUBLIC_URL } });
  let token: string;
  let path: string;
  let n = 0;
  beforeEach(async () => {
    clock.set(START);
    token = await testApp().createToken(100);
    path = `/low/${++n}`;
  });
  const received = () => outbound.requestsTo(path);
  const bodies = () => received().map((r) => r.text);
  const configure = (settings: Record<string, unknown>) => putSettings(testApp(), token, settings);
  const spend = (times: number, who = token) => spendCredits(testApp(), who, times);
  const credit = (amount: number) => operatorCredit(testApp(), ADMIN_TOKEN, token, amount);
  const send = () => sendPendingLowBalance(testApp().deps);
  const raw = (wallet: number, threshold: number) =>
    JSON.stringify({
      type: 'low_balance',
      wallet,
      threshold,
      token_hash: sha256Hex(token),
      timestamp: new Date(clock.now()).toISOString(),
    });

  it('sends exactly one notification with the exact body when spending crosses the threshold, and no second one', async () => {
    await configure({
      low_balance_threshold: 95,
      low_balance_webhook: { url: outbound.url(path), headers: { 'X-Team': 'ops' } },
    }); // 99 left
    expect(await spend(3)).toBe(96);
    expect((await send()).handled).toBe(0);
    expect(received()).toHaveLength(0);

    expect(await spend(1)).toBe(95); // at the threshold: notifies
    clock.advance(1500);
    expect(await send()).toEqual({ handled: 1, webhooks: 1, emails: 0 });
    expect(bodies()).toEqual([raw(95, 95)]);
    const [request] = received();
    expect(request?.method).toBe('POST');
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-team': 'ops',
      'user-agent': 'coinop-webhook/0.1.0',
    });
    // No secret exists to sign it with; its id and time are there, so a receiver can tell a repeat (delivery rule 3).
    expect(request?.headers).not.toHaveProperty('webhook-signature');
    expect(request?.headers['webhook-id']).toMatch(/^msg_[0-9A-Za-z]{20}$/);
    expect(Number(request?.headers['webhook-timestamp'])).toBe(Math.floor(clock.now() / 1000));

    expect(await spend(5)).toBe(90);
    expect((await send()).handled).toBe(0);
    expect(received()).toHaveLength(1);

    await testApp().deps.ledger.flush();
    const logs = (
      await testApp().inject({ method: 'GET', url: '/token/logs?type=webhook-delivery', headers: { 'x-token': token } })
    ).json().logs;
    expect(logs).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: 'low-balance',
        endpoint: 'webhook-delivery',
        status_code: 200,
        cost: 0,
        balance: 95,
      }),
    ]);
  });

  it('re-arms when an operator credit lifts the balance above the threshold, and notifies again on the next crossing', async () => {
    await configure({ low_balance_threshold: 95, low_balance_webhook: { url: outbound.url(path) } });
    await spend(4);
    await send();
    const first = raw(95, 95);
    expect(bodies()).toEqual([first]);

    // A credit back to exactly the threshold is not above it: no re-arm.
    expect(await spend(5)).toBe(90);
    expect(await credit(5)).toBe(95);
    expect(await spend(1)).toBe(94);
    await send();
    expect(received()).toHaveLength(1);

    expect(await credit(11)).toBe(105);
    expect((await send()).handled).toBe(0);
    expect(await spend(9)).toBe(96);
    await send();
    expect(received()).toHaveLength(1);
    expect(await spend(2)).toBe(94);
    // The credit reset the cooldown: the new incident goes out at once, well within the hour of the first.
    clock.advance(MINUTE);
    await send();
    expect(bodies()).toEqual([first, raw(94, 95)]);
  });

  it('formats the notification for slack', async () => {
    await configure({ low_balance_threshold: 95, low_balance_webhook: { url: outbound.url(path), format: 'slack' } });
    await spend(4);
    await send();
    expect(bodies()).toEqual([
      JSON.stringify({
        text: `*Low balance*\nWallet balance 95 is at or below the threshold 95.\nRecharge: GET ${PUBLIC_URL}/recharge`,
      }),
    ]);
  });

  it('fills a custom template with {{wallet}}, {{threshold}} and {{token_hash}}', async () => {
    const template = {
      text: 'Balance {{wallet}} under {{threshold}} for {{token_hash}}',
      data: { balance: '{{wallet}}', limit: '{{threshold}}' },
    };
    await configure({
      low_balance_threshold: 95,
      low_balance_webhook: { url: outbound.url(path), format: 'custom', template },
    });
    await spend(4);
    await send();
    expect(bodies()).toEqual([
      JSON.stringify({ text: `Balance 95 under 95 for ${sha256Hex(token)}`, data: { balance: 95, limit: 95 } }),
    ]);
  });

  it('logs a failed delivery and does not retry it', async () => {
    outbound.receiver().enqueue({ status: 500 });
    await configure({ low_balance_threshold: 95, low_balance_webhook: { url: outbound.url(path) } });
    await spend(4);
    expect(await send()).toEqual({ handled: 1, webhooks: 0, emails: 0 });
    expect(await send()).toEqual({ handled: 0, webhooks: 0, emails: 0 });
    expect(received()).toHaveLength(1);
    await testApp().deps.ledger.flush();
    const logs = (
      await testApp().inject({ method: 'GET', url: '/token/logs?type=webhook-delivery', headers: { 'x-token': token } })
    ).json().logs;
    expect(logs).toEqual([
      expect.objectContaining({ path: 'low-balance', status_code: 500, error: 'webhook call failed: HTTP 500' }),
    ]);
  });

  it('sends nothing when the balance rose back above the threshold before the notifier ran', async () => {
    await configure({ low_balance_threshold: 95, low_balance_webhook: { url: outbound.url(path) } });
    await spend(4);
    await credit(50);
    expect(await send()).toEqual({ handled: 1, webhooks: 0, emails: 0 });
    expect(received()).toHaveLength(0);
  });

  it('a crossing with no target set is not spent: the first webhook set afterwards hears of the next charge at or below', async () => {
    await configure({ low_balance_threshold: 95 }); // 99 left
    expect(await spend(5)).toBe(94); // crossed, with nowhere to send it
    expect(await send()).toEqual({ handled: 1, webhooks: 0, emails: 0 });
    await configure({ low_balance_webhook: { url: outbound.url(path) } }); // 93
    expect((await send()).handled).toBe(0); // setting a target sends nothing by itself
    expect(await spend(1)).toBe(92);
    await send();
    expect(bodies()).toEqual([raw(92, 95)]);
    // Changing the target of a wallet already told re-arms nothing.
    await configure({ low_balance_webhook: { url: outbound.url(`${path}/other`) } }); // 91
    expect(await spend(1)).toBe(90);
    expect((await send()).handled).toBe(0);
    expect(outbound.requestsTo(`${path}/other`)).toHaveLength(0);
  });

  it('never notifies with threshold 0 (disabled)', async () => {
    await configure({ low_balance_threshold: 0, low_balance_webhook: { url: outbound.url(path) } });
    await spend(99);
    expect((await send()).handled).toBe(0);
    expect(received()).toHaveLength(0);
  });

  it('takes over a claim whose lease ran out, but not one still held', async () => {
    await configure({ low_balance_threshold: 95, low_balance_webhook: { url: outbound.url(path) } });
    const walletId = await walletIdOf(testApp().deps, token);
    // Another instance claimed the incident and is (still) sending it.
    await testApp().deps.store.writeOne(
      'UPDATE wallets SET lb_pending = 2, lb_pending_until = $1, lb_armed = 0 WHERE id = $2',
      [clock.now() + MINUTE, walletId],
    );
    await spend(4);
    expect((await send()).handled).toBe(0);
    // That instance died: once the lease has run out, this one sends it.
    clock.advance(MINUTE + 1);
    expect((await send()).handled).toBe(1);
    expect(received()).toHaveLength(1);
    const row = await testApp().deps.store.read.get<{ lb_pending: number }>(
      'SELECT lb_pending FROM wallets WHERE id = $1',
      [walletId],
    );
    expect(row?.lb_pending).toBe(0);
  });

  it('keeps an incident raised while the previous one was being sent', async () => {
    await configure({ low_balance_threshold: 95, low_balance_webhook: { url: outbound.url(path) } });
    // The first notification is slow to be answered; meanwhile the wallet is re-armed and crosses again.
    outbound.receiver().enqueue({ status: 200, delayMs: 300 });
    await spend(4);
    const first = send();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await credit(10); // 105: re-armed
    await spend(11); // 94: a new incident
    await first;
    await send(); // the credit reset the cooldown

    expect(received().map((r) => JSON.parse(r.text).wallet)).toEqual([95, 94]);
  });

  it('is sent by the started notifier without anyone calling it', async () => {
    await configure({ low_balance_threshold: 95, low_balance_webhook: { url: outbound.url(path) } });
    const stop = startLowBalanceNotifier(testApp().deps, 'test-instance', { intervalMs: 50 });
    try {
      await spend(4);
      await outbound.receiver().waitForRequests(outbound.receiver().requests.length + 1, 3000);
      expect(bodies()).toEqual([raw(95, 95)]);
    } finally {
      await stop();
    }
  });
});
