import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, expect, it } from 'vitest';
import { balanceOf } from '../../helpers/app.js';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { POOL_SIZES } from '../../../src/outbound/pools.js';
import { ok, PLAIN, useReceiver, webhookApi } from './webhook-fixtures.js';
import { answerSlowPathLate } from '../../helpers/https-receiver.js';
import type { SlowAnswers } from '../../helpers/https-receiver.js';

const SLOW_ANSWER_MS = 1000;
const { perKey: DELIVERIES_PER_WALLET, maxWaitingPerKey: DELIVERIES_WAITING = 0 } = POOL_SIZES.askedDeliveries;
const HOSTILE_CALLS = DELIVERIES_PER_WALLET + DELIVERIES_WAITING + 6;

describeEachStore('POST /webhook/{webhookId}/test: one wallet cannot take the deliveries of others', (kind) => {
  const { env, receiver } = useReceiver();
  const get = useTestApp(kind, { env });
  /** Slow deliveries being answered now, and the most at once. */
  let slow: SlowAnswers = { now: 0, most: 0 };

  beforeAll(() => {
    slow = answerSlowPathLate(receiver(), SLOW_ANSWER_MS);
  });

  it("a wallet's many tests of a slow receiver hold only its share; another wallet's test answers at once; tests past its queue bound get 503, free", async () => {
    const hostileToken = await get().createToken(1000);
    const victimToken = await get().createToken(100);
    const hostile = webhookApi(get(), hostileToken);
    const victim = webhookApi(get(), victimToken);
    ok(await hostile.create({ webhookId: 'slow', url: receiver().url('/slow', '127.0.0.1') }));
    ok(await victim.create({ webhookId: 'fast', url: receiver().url('/fast', '127.0.0.1') }));

    const hostileCalls = Array.from({ length: HOSTILE_CALLS }, () => hostile.test('slow'));
    const deadline = performance.now() + 5000;
    while (slow.now < DELIVERIES_PER_WALLET && performance.now() < deadline) await sleep(10);
    const started = performance.now();
    const res = await victim.test('fast');
    const elapsed = performance.now() - started;
    expect(ok(res)).toEqual({ success: true, message: 'test webhook delivered' });
    expect(elapsed).toBeLessThan(1000);

    const answers = await Promise.all(hostileCalls);
    expect(slow.most).toBe(DELIVERIES_PER_WALLET);
    const refused = answers.filter((answer) => answer.statusCode === 503);
    expect(refused.length).toBe(HOSTILE_CALLS - DELIVERIES_PER_WALLET - DELIVERIES_WAITING);
    for (const answer of refused) {
      expect(answer.body).toBe('Too many calls of this wallet in progress: try again shortly');
      expect(answer.headers['content-type']).toBe(PLAIN);
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.headers['x-cost']).toBe('0');
    }
    const delivered = answers.filter((answer) => answer.statusCode === 200 && answer.json().success === true);
    expect(delivered.length).toBe(DELIVERIES_PER_WALLET + DELIVERIES_WAITING);
    // The webhook's creation and each test delivered cost 1; the refused tests nothing.
    expect(await balanceOf(get(), hostileToken)).toBe(1000 - 1 - delivered.length);
  }, 60_000);
});
