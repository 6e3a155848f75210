import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useUpgrade } from '../../helpers/upgrade.js';
import { claimNotification, pendingWallets } from '../../../src/ledger/low-balance.js';
import { HOUR, MINUTE } from '../../../src/lib/time.js';

const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const PENDING_WALLET =
  'INSERT INTO wallets (hash, balance, created_at, last_used_at, lb_threshold, lb_webhook, lb_armed, lb_pending) VALUES (\'h1\', 40, 0, 0, 50, \'{"url":"https://example.com/"}\', 0, 1)';

describeEachStore('upgrading to the low-balance rate limit (migration 9)', (kind) => {
  const upgrade = useUpgrade(kind);

  it('keeps an incident pending before the upgrade due at once, and the claim then starts its hour', async () => {
    const store = await upgrade.from(9, [[PENDING_WALLET, []]]);
    const [walletId] = await pendingWallets(store.read, NOW, HOUR, 10);
    expect(walletId).toBeDefined();
    const claim = await claimNotification(store, walletId as number, {
      now: NOW,
      leaseMs: MINUTE,
      minIntervalMs: HOUR,
    });
    expect(claim).toMatchObject({ balance: 40, threshold: 50 });
    const row = await store.read.get<{ lb_last_sent_at: number }>('SELECT lb_last_sent_at FROM wallets WHERE id = $1', [
      walletId,
    ]);
    expect(Number(row?.lb_last_sent_at)).toBe(NOW);
  });
});
