/**
 * For the scheduler suites: scheduled webhook rows written straight into the store (the management
 * API is not what these suites test) and the app, receiver and wallet every scheduler suite starts from.
 */
import { beforeEach } from 'vitest';
import type { Deps } from '../../../src/deps.js';
import { ManualClock, walletIdOf } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import type { OutboundFixture } from '../../helpers/outbound-fixture.js';
import type { StoreKind } from '../../helpers/stores.js';
import { useTestApp } from '../../helpers/use-test-app.js';

/** Where useSchedulerSuite puts the clock before each test. */
export const SUITE_START = Date.parse('2026-06-01T12:00:00.000Z');

export interface SchedulerSuite {
  readonly start: number;
  readonly clock: ManualClock;
  readonly outbound: OutboundFixture;
  readonly testApp: () => TestApp;
  /** The wallet of the current test: fresh for each, with 100 credits. */
  wallet(): { token: string; walletId: number };
}

/** Call at describe level: an app on a manual clock and a receiver; before each test the clock is back at `start`, no schedules exist, and a new wallet is made. */
export function useSchedulerSuite(kind: StoreKind): SchedulerSuite {
  const clock = new ManualClock(SUITE_START);
  const outbound = useOutboundFixture();
  const testApp = useTestApp(kind, { clock, env: outbound.env });
  let current: { token: string; walletId: number } | undefined;
  beforeEach(async () => {
    clock.set(SUITE_START);
    // Each test sees only its own schedules (moving the clock would make earlier ones due).
    await testApp().deps.store.writeOne('DELETE FROM webhooks');
    const token = await testApp().createToken(100);
    current = { token, walletId: await walletIdOf(testApp().deps, token) };
  });
  return {
    start: SUITE_START,
    clock,
    outbound,
    testApp,
    wallet: () => {
      if (current === undefined) throw new Error('no wallet yet');
      return current;
    },
  };
}

export interface ScheduleRow {
  readonly walletId: number;
  readonly webhookId: string;
  readonly url: string;
  readonly cron: string;
  readonly timezone?: string;
  readonly active?: boolean;
  readonly nextRunAt: number;
  readonly headers?: Record<string, string>;
  readonly signingSecret?: string;
}

const INSERT = `INSERT INTO webhooks (wallet_id, webhook_id, url, headers, signing_secret, cron, timezone, active, next_run_at, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`;

const params = (row: ScheduleRow, now: number): unknown[] => [
  row.walletId,
  row.webhookId,
  row.url,
  JSON.stringify(row.headers ?? {}),
  row.signingSecret ?? '',
  row.cron,
  row.timezone ?? 'UTC',
  row.active === false ? 0 : 1,
  row.nextRunAt,
  now,
];

export async function insertSchedules(deps: Deps, rows: readonly ScheduleRow[]): Promise<void> {
  const now = deps.clock.now();
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await deps.store.write(async (tx) => {
      for (const row of chunk) await tx.run(INSERT, params(row, now));
    });
  }
}

export interface ScheduleState {
  readonly active: number;
  readonly next_run_at: number | null;
  readonly last_run_at: number | null;
  readonly last_status: string | null;
  readonly last_error: string | null;
}

export async function scheduleState(
  deps: Deps,
  walletId: number,
  webhookId: string,
): Promise<ScheduleState | undefined> {
  return deps.store.read.get<ScheduleState>(
    'SELECT active, next_run_at, last_run_at, last_status, last_error FROM webhooks WHERE wallet_id = $1 AND webhook_id = $2',
    [walletId, webhookId],
  );
}
