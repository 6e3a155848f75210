import { beforeAll, describe, expect, it } from 'vitest';
import { useTwoPostgresInstances } from '../../helpers/use-test-app.js';
import type { TestApp } from '../../helpers/app.js';
import { ManualClock } from '../../helpers/app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { sendPendingLowBalance } from '../../../src/features/settings/low-balance-notifier.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { putSettings, spendCredits } from '../../helpers/low-balance.js';

const WALLETS = 40;

describe.skipIf(!process.env.TEST_DATABASE_URL)('low-balance notifications, two instances on one PostgreSQL', () => {
  const clock = new ManualClock();
  const outbound = useOutboundFixture();
  const instances = useTwoPostgresInstances({ clock, env: outbound.env });
  let first: TestApp;
  let second: TestApp;
  beforeAll(() => ([first, second] = instances()));

  it('sends one notification per incident when both instances look at once', async () => {
    const tokens = await Promise.all(Array.from({ length: WALLETS }, () => first.createToken(100)));
    for (const token of tokens) {
      await putSettings(first, token, {
        low_balance_threshold: 98,
        low_balance_webhook: { url: outbound.url('/both') },
      });
      // The crossing charge lands on the second instance: the store, not the instance, holds the incident.
      await spendCredits(second, token, 1);
    }
    const reports = await Promise.all([
      sendPendingLowBalance(first.deps),
      sendPendingLowBalance(second.deps),
      sendPendingLowBalance(first.deps),
      sendPendingLowBalance(second.deps),
    ]);
    expect(reports.reduce((sum, r) => sum + r.webhooks, 0)).toBe(WALLETS);
    const hashes = outbound.requestsTo('/both').map((request) => JSON.parse(request.text).token_hash as string);
    expect(hashes.sort()).toEqual(tokens.map((token) => sha256Hex(token)).sort());
  });
});
