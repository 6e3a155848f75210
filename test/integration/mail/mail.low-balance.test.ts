import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { sendPendingLowBalance } from '../../../src/features/settings/low-balance-notifier.js';
import { putSettings } from '../../helpers/low-balance.js';
import { balanceOf, createMailbox, deliveredMail, useMailHarness } from './mail-fixtures.js';

const LOW_PATH = '/low-balance';

describeEachStore('inbound mail: a mail charge can raise the low-balance notification', (kind) => {
  const get = useMailHarness(kind);

  it('notifies once when the charge for a message leaves the wallet at or below its threshold', async () => {
    const h = get();
    const box = await createMailbox(h, {}, 100);
    await putSettings(h.t, box.token, {
      low_balance_threshold: 96,
      low_balance_webhook: { url: h.receiver.url(LOW_PATH, '127.0.0.1') },
    });
    expect(await balanceOf(h, box.token)).toBe(99);
    const notifications = () => h.receiver.requests.filter((request) => request.path === LOW_PATH);

    // 99 → 97: still above the threshold, nothing to send.
    await deliveredMail(h, { to: box.email, subject: 'first', text: 'x' });
    expect(await sendPendingLowBalance(h.t.deps)).toMatchObject({ handled: 0 });
    expect(notifications()).toHaveLength(0);

    // 97 → 95: the mail charge crosses 96.
    await deliveredMail(h, { to: box.email, subject: 'second', text: 'x' });
    expect(await balanceOf(h, box.token)).toBe(95);
    expect(await sendPendingLowBalance(h.t.deps)).toMatchObject({ handled: 1, webhooks: 1 });
    expect(notifications().map((request) => JSON.parse(request.text) as unknown)).toStrictEqual([
      {
        type: 'low_balance',
        wallet: 95,
        threshold: 96,
        token_hash: sha256Hex(box.token),
        timestamp: expect.any(String),
      },
    ]);

    // Further mail does not repeat the incident.
    await deliveredMail(h, { to: box.email, subject: 'third', text: 'x' });
    expect(await sendPendingLowBalance(h.t.deps)).toMatchObject({ handled: 0 });
    expect(notifications()).toHaveLength(1);
  });
});
