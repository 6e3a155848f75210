import type { ManyStatement, RowLocks, Store, Unit } from '../../store/store.js';
import type { CronSchedule } from '../../lib/cron/cron-rules.js';
import { planRun } from './run-plan.js';
import type { RunPlan } from './run-plan.js';
import type { WebhookRecord } from '../webhooks/index.js';
import type { ClaimShares } from '../../jobs/fair-drain.js';

/** A due schedule as selected, with its wallet's hash (the payload's walletHash). */
interface DueRow {
  readonly wallet_id: number;
  readonly webhook_id: string;
  readonly cron: string | null;
  readonly timezone: string | null;
  readonly next_run_at: number;
  readonly hash: string;
}

/** A run this instance has claimed and must carry out. */
export interface ClaimedRun {
  readonly walletId: number;
  readonly webhookId: string;
  readonly walletHash: string;
  readonly scheduledFor: number;
  /** Delivery target as it is at claim time. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Every webhook has one (set at creation, NOT NULL), so every scheduled call is signed. */
  readonly signingSecret: string;
  /** The secret a rotation replaced: it signs too while the overlap lasts (src/delivery-core/signing.ts). */
  readonly previousSigningKey?: WebhookRecord['previousSigningKey'];
  /** The webhook's opt-in retries (0: one attempt). */
  readonly retryAttempts: number;
}

export interface ClaimBatch {
  readonly runs: ClaimedRun[];
  /** Schedules moved on without a run (missed by an hour or more, or no longer valid). */
  readonly skipped: number;
  /** False when fewer than `limit` schedules were due: nothing is left for now. */
  readonly more: boolean;
}

/**
 * Rows another instance is claiming are skipped, not waited for, and only the webhook rows are locked
 * (`OF w`), never the wallets charges write to. The `excluded` wallets ($3 on) have no room for more runs.
 */
const selectDue = (locks: RowLocks, excluded: number): string => `
SELECT w.wallet_id, w.webhook_id, w.cron, w.timezone, w.next_run_at, wa.hash
FROM webhooks w JOIN wallets wa ON wa.id = w.wallet_id
WHERE w.active = 1 AND w.next_run_at <= $1${excluded === 0 ? '' : ` AND w.wallet_id NOT IN (${Array.from({ length: excluded }, (_, i) => `$${i + 3}`).join(', ')})`}
ORDER BY w.next_run_at
LIMIT $2${locks.skipLocked('w')}`;

/** The rows to claim: every run of a wallet with room for it (`shares`), and every row that only moves on (skipped, invalid). */
function withinShares<R extends { readonly row: DueRow; readonly plan: RunPlan }>(
  entries: readonly R[],
  shares: ClaimShares | undefined,
): R[] {
  if (shares === undefined) return [...entries];
  return entries.filter(({ row, plan }) => plan.kind !== 'fire' || shares.take(row.wallet_id));
}

/**
 * The claim: moves next_run_at on only if it still holds the value read, so a run is claimed once. Rows are
 * (wallet_id, webhook_id, due_at, next_run_at); `columns` claims a whole batch in one statement.
 */
const CLAIM = {
  sql: `
UPDATE webhooks SET next_run_at = $4
WHERE wallet_id = $1 AND webhook_id = $2 AND active = 1 AND next_run_at = $3
RETURNING wallet_id, webhook_id, url, headers, signing_secret, previous_signing_secret, signing_secret_rotated_at, retry_attempts`,
  columns: {
    types: ['bigint', 'text', 'bigint', 'bigint'],
    sql: (rows) => `
UPDATE webhooks AS w SET next_run_at = v.next_run_at
FROM ${rows} AS v(wallet_id, webhook_id, due_at, next_run_at)
WHERE w.wallet_id = v.wallet_id AND w.webhook_id = v.webhook_id AND w.active = 1 AND w.next_run_at = v.due_at
RETURNING w.wallet_id, w.webhook_id, w.url, w.headers, w.signing_secret, w.previous_signing_secret, w.signing_secret_rotated_at, w.retry_attempts`,
  },
} satisfies ManyStatement;

interface ClaimedRow {
  readonly wallet_id: number;
  readonly webhook_id: string;
  readonly url: string;
  readonly headers: string;
  readonly signing_secret: string;
  readonly previous_signing_secret: string | null;
  readonly signing_secret_rotated_at: number | null;
  readonly retry_attempts: number;
}

interface ClaimTarget {
  readonly walletId: number;
  readonly webhookId: string;
  readonly dueAt: number;
  readonly nextRunAt: number | null;
}

function claimAll(tx: Unit, targets: readonly ClaimTarget[]): Promise<ClaimedRow[]> {
  return tx.executeMany<ClaimedRow>(
    CLAIM,
    targets.map((t) => [t.walletId, t.webhookId, t.dueAt, t.nextRunAt]),
  );
}

const key = (walletId: number, webhookId: string): string => `${walletId}\u0000${webhookId}`;

const RECORD = `
UPDATE webhooks SET last_run_at = $1, last_status = $2, last_error = $3
WHERE wallet_id = $4 AND webhook_id = $5 AND (last_run_at IS NULL OR last_run_at <= $1)`;

/** RECORD for many rows of (wallet_id, webhook_id, ran_at, status, error); `columns` in one statement. */
const RECORD_MANY = {
  sql: `
UPDATE webhooks SET last_run_at = $3, last_status = $4, last_error = $5
WHERE wallet_id = $1 AND webhook_id = $2 AND (last_run_at IS NULL OR last_run_at <= $3)`,
  columns: {
    types: ['bigint', 'text', 'bigint', 'text', 'text'],
    sql: (rows) => `
UPDATE webhooks AS w SET last_run_at = v.ran_at, last_status = v.status, last_error = v.error
FROM ${rows} AS v(wallet_id, webhook_id, ran_at, status, error)
WHERE w.wallet_id = v.wallet_id AND w.webhook_id = v.webhook_id AND (w.last_run_at IS NULL OR w.last_run_at <= v.ran_at)`,
  },
} satisfies ManyStatement;

/**
 * Claims up to `limit` due schedules in one unit of work: each gets its next run computed and
 * written before any delivery, so an instance crashing mid-delivery never causes a second run
 * (a claimed run is at most once; docs/contract.md#deliveries, rule 3: best effort).
 */
export async function claimDueRuns(
  store: Store,
  options: {
    now: number;
    limit: number;
    schedules: (cron: string | null, timezone: string | null) => CronSchedule | string;
    /** Each wallet's room in the pool the runs go to: runs of a wallet without room stay due, for later. */
    shares?: ClaimShares;
  },
): Promise<ClaimBatch> {
  const { now, limit } = options;
  const excluded = options.shares?.full ?? [];
  return store.write(async (tx) => {
    const due = await tx.all<DueRow>(selectDue(tx.locks, excluded.length), [now, limit, ...excluded]);
    const planned = due.map((row) => ({
      row,
      plan: planRun(options.schedules(row.cron, row.timezone), row.next_run_at, now),
    }));
    const plans = new Map(
      withinShares(planned, options.shares).map((entry) => [key(entry.row.wallet_id, entry.row.webhook_id), entry]),
    );
    const claimed = await claimAll(
      tx,
      [...plans.values()].map(({ row, plan }) => ({
        walletId: row.wallet_id,
        webhookId: row.webhook_id,
        dueAt: row.next_run_at,
        nextRunAt: plan.kind === 'invalid' ? null : plan.nextRunAt,
      })),
    );
    const runs: ClaimedRun[] = [];
    let skipped = 0;
    for (const row of claimed) {
      const entry = plans.get(key(row.wallet_id, row.webhook_id));
      if (entry === undefined) continue;
      const { plan } = entry;
      if (plan.kind === 'invalid') {
        await tx.run(RECORD, [now, 'failure', plan.error, row.wallet_id, row.webhook_id]);
        skipped += 1;
      } else if (plan.kind === 'skip') {
        skipped += 1;
      } else {
        runs.push({
          walletId: row.wallet_id,
          webhookId: row.webhook_id,
          walletHash: entry.row.hash,
          scheduledFor: plan.scheduledFor,
          url: row.url,
          headers: parseHeaders(row.headers),
          signingSecret: row.signing_secret,
          retryAttempts: row.retry_attempts,
          ...(row.previous_signing_secret === null || row.signing_secret_rotated_at === null
            ? {}
            : {
                previousSigningKey: { secret: row.previous_signing_secret, rotatedAt: row.signing_secret_rotated_at },
              }),
        });
      }
    }
    // Due order, whatever order the claim statement returned them in.
    runs.sort((a, b) => a.scheduledFor - b.scheduledFor);
    return { runs, skipped, more: due.length === limit };
  });
}

export interface RunRecord {
  readonly walletId: number;
  readonly webhookId: string;
  readonly ranAt: number;
  readonly status: 'success' | 'failure';
  readonly error?: string;
}

/** Records outcomes in one unit; an older outcome arriving late never overwrites a newer one. */
export async function recordRuns(store: Store, records: readonly RunRecord[]): Promise<void> {
  // One row per webhook (the latest), so one statement never updates a row twice.
  const latest = new Map<string, RunRecord>();
  for (const record of records) {
    const k = key(record.walletId, record.webhookId);
    const seen = latest.get(k);
    if (seen === undefined || seen.ranAt <= record.ranAt) latest.set(k, record);
  }
  const rows = [...latest.values()];
  if (rows.length === 0) return;
  await store.executeMany(
    RECORD_MANY,
    rows.map((r) => [r.walletId, r.webhookId, r.ranAt, r.status, r.error ?? null]),
  );
}

function parseHeaders(json: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(json);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}
