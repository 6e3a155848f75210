import { beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { ManualClock } from '../../helpers/app.js';
import { HOUR } from '../../../src/lib/time.js';
import { sendPendingLowBalance } from '../../../src/features/settings/low-balance-notifier.js';
import type { NotifierReport } from '../../../src/features/settings/low-balance-notifier.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { putSettings, spendCredits } from '../../helpers/low-balance.js';
import type { ReceivedRequest, ScriptedResponse } from '../../helpers/https-receiver.js';

const START = Date.parse('2026-06-01T12:00:00.000Z');

/**
 * A url-to-metadata call (55 credits) on a target answering 500 ends as a 502 that costs 0: charged,
 * then refunded. With threshold 50 and 100 credits, the charge crosses the threshold and the refund
 * lifts the balance back above it.
 */
describeEachStore('low-balance: refunds of calls that end free', (kind) => {
  const clock = new ManualClock(START);
  const outbound = useOutboundFixture();
  const testApp = useTestApp(kind, { clock, env: outbound.env });
  let token: string;
  let lowPath: string;
  let n = 0;
  /** What the target does while a call is in flight (before it answers 500). */
  let whileInFlight: () => Promise<unknown> = async () => undefined;
  const reports: NotifierReport[] = [];
  const send = async () => {
    const report = await sendPendingLowBalance(testApp().deps);
    reports.push(report);
    return report;
  };

  beforeEach(async () => {
    clock.set(START);
    token = await testApp().createToken(100);
    lowPath = `/low/${++n}`;
    whileInFlight = async () => undefined;
    reports.length = 0;
    outbound.receiver().respondWith(async (request: ReceivedRequest): Promise<ScriptedResponse> => {
      if (request.path === '/down') {
        await whileInFlight();
        return { status: 500, body: 'down' };
      }
      return request.path.startsWith('/low/') ? { status: 200 } : { status: 404 };
    });
    await putSettings(testApp(), token, {
      low_balance_threshold: 50,
      low_balance_webhook: { url: outbound.url(lowPath) },
    }); // 99 left
  });

  const freeCall = async () => {
    const res = await testApp().inject({
      method: 'POST',
      url: '/url-to-metadata',
      headers: { 'x-token': token, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: outbound.url('/down') }),
    });
    expect([res.statusCode, res.headers['x-cost'], res.headers['x-balance']]).toEqual([502, '0', '99']);
  };
  const notifications = () => outbound.requestsTo(lowPath);

  it('sends one notification for ten free calls, each crossing the threshold while in flight, even hours apart', async () => {
    // The notifier runs while each call is in flight, with the balance at 44.
    whileInFlight = send;
    for (let i = 0; i < 10; i++) {
      await freeCall();
      clock.advance(HOUR + 1); // past the rate limit: only the refund's not re-arming can stop the next one
    }
    expect(notifications().map((request) => JSON.parse(request.text).wallet)).toEqual([44]);
  });

  it('withdraws the incident when the refund comes before any notifier: nothing is sent, and a later real crossing notifies', async () => {
    await freeCall();
    expect(await send()).toEqual({ handled: 0, webhooks: 0, emails: 0 });
    expect(notifications()).toHaveLength(0);

    // The wallet is still armed: spending down to the threshold notifies.
    await spendCredits(testApp(), token, 49);
    await send();
    expect(notifications().map((request) => JSON.parse(request.text).wallet)).toEqual([50]);
  });
});
