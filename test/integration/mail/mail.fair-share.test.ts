import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { POOL_SIZES } from '../../../src/outbound/pools.js';
import { parseKey } from '../../../src/features/mail/inbound.service.js';
import { createMailbox, useMailHarness } from './mail-fixtures.js';
import type { MailHarness } from './mail-fixtures.js';
import { answerSlowPathLate } from '../../helpers/https-receiver.js';
import type { SlowAnswers } from '../../helpers/https-receiver.js';

const SECRET = 'relay-secret-0123456789';
const SLOW_ANSWER_MS = 1500;
const { slots: DELIVERY_SLOTS, perKey: DELIVERIES_PER_WALLET } = POOL_SIZES.mailDeliveries;
/** More messages than the delivery pool has slots: before, they took every one of them. */
const HOSTILE_MESSAGES = DELIVERY_SLOTS + 16;

const message = (id: string) =>
  ['From: Flood <flood@sender.test>', `Message-ID: <${id}@sender.test>`, 'Subject: hello', '', 'Body.', ''].join(
    '\r\n',
  );

function relay(h: MailHarness, recipient: string, id: string) {
  return h.t.inject({
    method: 'POST',
    url: `/inbound/raw?recipient=${encodeURIComponent(recipient)}`,
    headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': SECRET },
    payload: message(id),
  });
}

describeEachStore("inbound mail: one wallet's flood does not hold the delivery slots of another's", (kind) => {
  const get = useMailHarness(kind, { env: { INBOUND_SECRET: SECRET } });
  /** Slow deliveries being answered now, and the most at once. */
  let slow: SlowAnswers = { now: 0, most: 0 };

  beforeAll(() => {
    slow = answerSlowPathLate(get().receiver, SLOW_ANSWER_MS);
  });

  it("a wallet whose receiver is slow gets its share of the delivery slots; another wallet's mail is delivered at once", async () => {
    const h = get();
    const hostile = await createMailbox(h, {}, 1000, '/slow');
    const victim = await createMailbox(h, {}, 100, '/fast');
    for (let i = 0; i < HOSTILE_MESSAGES; i++)
      expect((await relay(h, hostile.email, `flood-${kind}-${i}`)).statusCode).toBe(202);
    const deadline = performance.now() + 5000;
    while (slow.now < DELIVERIES_PER_WALLET && performance.now() < deadline) await sleep(10);

    const started = performance.now();
    expect((await relay(h, victim.email, `victim-${kind}`)).statusCode).toBe(202);
    while (h.receiver.requests.every((request) => request.path !== '/fast') && performance.now() < started + 10_000)
      await sleep(10);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(slow.most).toBe(DELIVERIES_PER_WALLET);
  }, 30_000);

  it("wallets whose slow receivers hold every shared delivery slot leave another wallet's mail to be delivered at once, in the reserve", async () => {
    const h = get();
    await h.t.inbound?.idle(); // the last test's slow deliveries are done: every slot is free
    const busyWallets = DELIVERY_SLOTS / DELIVERIES_PER_WALLET;
    const before = slow.now;
    for (let w = 0; w < busyWallets; w++) {
      const hostile = await createMailbox(h, {}, 1000, '/slow');
      for (let i = 0; i < DELIVERIES_PER_WALLET + 2; i++)
        expect((await relay(h, hostile.email, `busy-${kind}-${w}-${i}`)).statusCode).toBe(202);
    }
    const deadline = performance.now() + 5000;
    while (slow.now < before + DELIVERY_SLOTS && performance.now() < deadline) await sleep(10);
    expect(slow.now).toBe(DELIVERY_SLOTS);

    const victim = await createMailbox(h, {}, 100, '/in-reserve');
    const started = performance.now();
    expect((await relay(h, victim.email, `reserve-${kind}`)).statusCode).toBe(202);
    while (
      h.receiver.requests.every((request) => request.path !== '/in-reserve') &&
      performance.now() < started + 10_000
    )
      await sleep(10);
    const slowWhenDelivered = slow.now;
    // Before, it waited for a slow delivery to end (SLOW_ANSWER_MS) and took its slot.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(slowWhenDelivered).toBe(DELIVERY_SLOTS);
    // The busy wallets' deliveries beyond their share did not take the reserve.
    expect(slow.most).toBe(DELIVERY_SLOTS);
  }, 30_000);
});

it('a message takes the parse slots of the wallet of its first recipient mailbox', () => {
  expect(parseKey([{ walletId: 7 }, { walletId: 3 }])).toBe(7);
  expect(() => parseKey([])).toThrow();
});
