import { beforeAll, describe, expect, it } from 'vitest';
import { useTwoPostgresInstances } from '../../helpers/use-test-app.js';
import type { TestApp } from '../../helpers/app.js';
import { ManualClock } from '../../helpers/app.js';
import { HOUR } from '../../../src/lib/time.js';
import { sendPendingLowBalance } from '../../../src/features/settings/low-balance-notifier.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { operatorCredit, putSettings, spendCredits } from '../../helpers/low-balance.js';

const ADMIN_TOKEN = 'admin-token-for-two-instances';

describe.skipIf(!process.env.TEST_DATABASE_URL)('low-balance rate limit, two instances on one PostgreSQL', () => {
  const clock = new ManualClock();
  const outbound = useOutboundFixture();
  const instances = useTwoPostgresInstances({ clock, env: { ...outbound.env, ADMIN_TOKEN } });
  let first: TestApp;
  let second: TestApp;
  beforeAll(() => ([first, second] = instances()));

  it('sends one notification within the hour, whichever instance sees the second crossing', async () => {
    const token = await first.createToken(100);
    const call = (t: TestApp) => spendCredits(t, token, 1);
    await putSettings(first, token, { low_balance_threshold: 98, low_balance_webhook: { url: outbound.url('/two') } });
    await call(first); // 98: crosses
    await Promise.all([sendPendingLowBalance(first.deps), sendPendingLowBalance(second.deps)]);
    expect(outbound.requestsTo('/two')).toHaveLength(1);

    // A new threshold re-arms for free; the next crossing lands on the other instance, whose notifier is held back too.
    await putSettings(second, token, { low_balance_threshold: 95 }); // 97
    for (let i = 0; i < 2; i++) await call(second); // 96 → 95
    await Promise.all([sendPendingLowBalance(first.deps), sendPendingLowBalance(second.deps)]);
    expect(outbound.requestsTo('/two')).toHaveLength(1);

    clock.advance(HOUR);
    await Promise.all([sendPendingLowBalance(second.deps), sendPendingLowBalance(first.deps)]);
    expect(outbound.requestsTo('/two').map((request) => JSON.parse(request.text).wallet)).toEqual([98, 95]);
  });

  it('notifies at once, on either instance, a crossing after a real credit re-armed the wallet', async () => {
    const token = await first.createToken(100);
    await putSettings(first, token, {
      low_balance_threshold: 98,
      low_balance_webhook: { url: outbound.url('/two-credit') },
    });
    await spendCredits(first, token, 1); // 98: crosses
    await Promise.all([sendPendingLowBalance(first.deps), sendPendingLowBalance(second.deps)]);
    await operatorCredit(second, ADMIN_TOKEN, token, 5); // 103: re-armed, cooldown reset
    await spendCredits(first, token, 6); // 97
    await Promise.all([sendPendingLowBalance(second.deps), sendPendingLowBalance(first.deps)]);
    expect(outbound.requestsTo('/two-credit').map((request) => JSON.parse(request.text).wallet)).toEqual([98, 97]);
  });
});
