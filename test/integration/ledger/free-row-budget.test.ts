import { describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock, walletIdOf } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { FREE_BURST } from '../../../src/ledger/free-row-limit.js';
import { MINUTE } from '../../../src/lib/time.js';
import { runDueSchedules } from '../../../src/features/scheduler/scheduler.js';
import { insertSchedules } from '../scheduler/fixtures.js';
import { createMailbox, useMailHarness } from '../mail/mail-fixtures.js';

// Every row that costs nothing passes the ledger's one budget per wallet, whoever records it:
// refused inbound mail and refused scheduled runs as much as free HTTP calls.
const OVER_BUDGET = FREE_BURST + 15;
const SECRET = 'relay-secret-0123456789';

async function refusalRows(t: TestApp, walletId: number): Promise<number> {
  await t.deps.ledger.flush();
  const row = await t.deps.store.read.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM logs WHERE wallet_id = $1 AND status_code = 402',
    [walletId],
  );
  return Number(row?.n);
}

describeEachStore('the free-row budget of the call log', (kind) => {
  describe('refused inbound mail', () => {
    const clock = new ManualClock();
    const harness = useMailHarness(kind, { env: { INBOUND_SECRET: SECRET }, app: { clock } });
    const relay = (recipient: string) =>
      harness().t.inject({
        method: 'POST',
        url: `/inbound/raw?recipient=${encodeURIComponent(recipient)}`,
        headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': SECRET },
        payload: 'From: a@relay.test\r\nSubject: hi\r\n\r\nhello\r\n',
      });

    it(`logs at most ${FREE_BURST} of a wallet's refusals at once, and more as the budget refills`, async () => {
      const box = await createMailbox(harness(), {}, 0);
      const walletId = await walletIdOf(harness().t.deps, box.token);
      for (let i = 0; i < OVER_BUDGET; i++) expect((await relay(box.email)).statusCode).toBe(402);
      expect(await refusalRows(harness().t, walletId)).toBe(FREE_BURST);
      clock.advance(MINUTE);
      expect((await relay(box.email)).statusCode).toBe(402);
      expect(await refusalRows(harness().t, walletId)).toBe(FREE_BURST + 1);
    });
  });

  describe('refused scheduled runs', () => {
    const clock = new ManualClock();
    const testApp = useTestApp(kind, { clock });

    it(`logs at most ${FREE_BURST} of a wallet's refused runs at once`, async () => {
      const walletId = await walletIdOf(testApp().deps, await testApp().createToken(0));
      const schedules = Array.from({ length: OVER_BUDGET }, (_, i) => ({
        walletId,
        webhookId: `broke-${i}`,
        url: 'https://127.0.0.1:9/run',
        cron: '* * * * *',
        nextRunAt: clock.now(),
      }));
      await insertSchedules(testApp().deps, schedules);
      expect(await runDueSchedules(testApp().deps)).toMatchObject({ fired: OVER_BUDGET, failed: OVER_BUDGET });
      expect(await refusalRows(testApp(), walletId)).toBe(FREE_BURST);
    });
  });
});
