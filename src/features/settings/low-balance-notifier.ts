/**
 * Low-balance notifications: the charge that leaves a wallet at or below its threshold raises
 * `lb_pending` in the same statement (the outbox, see ledger/wallet.queries.ts); this worker sends one
 * notification per incident, to the configured webhook and/or e-mail address, then clears it.
 * Re-arming is the credit statement's job: a balance back above the threshold arms the next incident
 * (a refund does not, see ledger/wallet.queries.ts) and resets the cooldown. Re-arms that cost nothing
 * (a new threshold) get a wallet at most one notification per NOTIFICATION_MIN_INTERVAL_MS, enforced by
 * the claim in the store (ledger/low-balance.ts).
 */
import type { Deps } from '../../deps.js';
import { HOUR, isoTime, MINUTE, SECOND } from '../../lib/time.js';
import { formatLowBalance, isWebhookFormat, lowBalanceSentence } from '../../formats/index.js';
import type { LowBalanceEvent } from '../../formats/index.js';
import { deliver } from '../../delivery-core/index.js';
import { drainBatches } from '../../jobs/bounded-pool.js';
import { startPoller } from '../../jobs/poller.js';
import type { RunningWorker } from '../../jobs/poller.js';
import { OutageLog } from '../../jobs/outage-log.js';
import { PendingWrites } from '../../jobs/pending-writes.js';
import type { ClaimedNotification } from '../../ledger/ledger.js';
import type { LowBalanceWebhook } from './settings.schemas.js';

/** What `path` shows in the wallet's log for a low-balance webhook delivery. */
const LOW_BALANCE_LOG_PATH = 'low-balance';
/**
 * How long a claim is exclusive. It outlasts the slowest send (webhook 10 s, SMTP timeouts 10 s + 30 s),
 * so a notification is sent twice only when its sender died mid-way.
 */
export const NOTIFICATION_LEASE_MS = 2 * MINUTE;
/**
 * At most one notification per wallet per hour unless a real credit re-armed it: each one is an e-mail or
 * a POST the operator sends on the wallet's behalf, so re-arming by threshold edits cannot turn them into
 * a free mailer. An incident held back is sent when the hour is over, if the balance is still low then.
 */
export const NOTIFICATION_MIN_INTERVAL_MS = HOUR;
/** Sends in flight at once: notifications are rare (one per incident) but each may wait seconds on a slow receiver or SMTP server. */
const NOTIFIER_CONCURRENCY = 16;

export interface NotifierReport {
  /** Incidents claimed and handled (sent, or dropped because the balance is no longer low). */
  handled: number;
  webhooks: number;
  emails: number;
}

export interface NotifierOptions {
  readonly shouldStop?: () => boolean;
  /** Where failures are reported (default: each one logged as an error). */
  readonly outage?: OutageLog;
  /**
   * Releases that met the store away, kept and tried again: an unreleased claim would run out and be taken
   * over, and its notification sent again. Default: a release that fails is not retried.
   */
  readonly releases?: PendingWrites;
}

/** One pass: every pending notification is claimed and sent; resolves when all are done (rejects after them when some claim met the store away). */
export async function sendPendingLowBalance(deps: Deps, options: NotifierOptions = {}): Promise<NotifierReport> {
  const report: NotifierReport = { handled: 0, webhooks: 0, emails: 0 };
  const outage = options.outage ?? new OutageLog(deps.logger);
  let claimFailure: unknown;
  await drainBatches<ClaimedNotification>({
    concurrency: NOTIFIER_CONCURRENCY,
    batchSize: 100,
    shouldStop: options.shouldStop,
    fetch: async (limit) => {
      const timing = {
        now: deps.clock.now(),
        leaseMs: NOTIFICATION_LEASE_MS,
        minIntervalMs: NOTIFICATION_MIN_INTERVAL_MS,
      };
      const candidates = await deps.ledger.pendingNotifications(timing.now, timing.minIntervalMs, limit);
      // Settled one by one: the claims that did commit are sent even when others met the store away.
      const settled = await Promise.allSettled(
        candidates.map((walletId) => deps.ledger.claimNotification(walletId, timing)),
      );
      const items = settled.flatMap((claim) =>
        claim.status === 'fulfilled' && claim.value !== undefined ? [claim.value] : [],
      );
      const failed = settled.find((claim) => claim.status === 'rejected');
      if (failed !== undefined) {
        claimFailure ??= failed.reason;
        return { items, more: false };
      }
      // Candidates all taken by another instance: stop here rather than read them again.
      return { items, more: candidates.length === limit && items.length > 0 };
    },
    handle: async (claim) => {
      try {
        const sent = await notify(deps, claim);
        report.handled += 1;
        if (sent.webhook) report.webhooks += 1;
        if (sent.email) report.emails += 1;
      } finally {
        // No retry (docs/contract.md#deliveries, rule 2): whatever happened, this incident is done.
        const release = () => deps.ledger.releaseNotification(claim);
        if (options.releases === undefined) await release();
        else
          await options.releases.run(
            `${claim.walletId}:${claim.leaseUntil}`,
            release,
            'releasing a low-balance claim failed',
          );
      }
    },
    onError: (error) => outage.report(error, 'low-balance notification failed'),
  });
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what a claim met, unchanged.
  if (claimFailure !== undefined) throw claimFailure;
  return report;
}

async function notify(deps: Deps, claim: ClaimedNotification): Promise<{ webhook: boolean; email: boolean }> {
  // The balance rose back above the threshold (or notifications were disabled) before we got here:
  // the incident is over and a "balance is low" message would be false.
  if (claim.threshold <= 0 || claim.balance > claim.threshold) return { webhook: false, email: false };
  const event: LowBalanceEvent = {
    wallet: claim.balance,
    threshold: claim.threshold,
    token_hash: claim.hash,
    timestamp: isoTime(deps.clock.now()),
  };
  const [webhook, email] = await Promise.all([sendWebhook(deps, claim, event), sendEmail(deps, claim, event)]);
  return { webhook, email };
}

/** Plain (unsigned: no secret exists for it) delivery through the SSRF-safe client, logged as `webhook-delivery`. */
async function sendWebhook(deps: Deps, claim: ClaimedNotification, event: LowBalanceEvent): Promise<boolean> {
  if (claim.webhookJson === undefined) return false;
  // Stored by PUT /token/settings from a validated LowBalanceWebhook.
  const webhook = JSON.parse(claim.webhookJson) as LowBalanceWebhook;
  const format = isWebhookFormat(webhook.format) ? webhook.format : undefined;
  const body = formatLowBalance(format, event, {
    options: webhook.options,
    template: webhook.template,
    publicUrl: deps.config.publicUrl,
  });
  const result = await deliver(deps, {
    trigger: 'low_balance',
    walletId: claim.walletId,
    webhookId: LOW_BALANCE_LOG_PATH,
    url: webhook.url,
    headers: webhook.headers ?? {},
    body,
    cost: 0,
    balance: claim.balance,
  });
  return result.ok;
}

async function sendEmail(deps: Deps, claim: ClaimedNotification, event: LowBalanceEvent): Promise<boolean> {
  if (claim.email === undefined) return false;
  const context = { wallet: claim.hash, to: claim.email };
  if (!deps.mailer.configured) {
    deps.logger.warn(context, 'low-balance e-mail not sent: SMTP_URL is not set');
    return false;
  }
  try {
    await deps.mailer.send({ to: claim.email, ...lowBalanceEmail(event, deps.config.publicUrl) });
    return true;
  } catch (error) {
    deps.logger.warn({ ...context, err: error }, 'low-balance e-mail not sent: the SMTP server refused it');
    return false;
  }
}

/** docs/contract.md#low-balance: subject `Low balance: 42 credits left`; a short body with the threshold and a recharge hint. */
function lowBalanceEmail(event: LowBalanceEvent, publicUrl: string): { subject: string; text: string } {
  const base = publicUrl.replace(/\/+$/, '');
  return {
    subject: `Low balance: ${event.wallet} credits left`,
    text: [
      lowBalanceSentence(event),
      '',
      `Recharge: GET ${base}/recharge with your token in the x-token header returns a payment link.`,
      '',
      `Token hash: ${event.token_hash}`,
      `Time: ${event.timestamp}`,
      '',
    ].join('\n'),
  };
}

/** Polls every second on every instance; the claim makes each notification go out once. */
export function startLowBalanceNotifier(
  deps: Deps,
  instanceId: string,
  options: { intervalMs?: number } = {},
): RunningWorker {
  const logger = deps.logger.child({ worker: 'low-balance', instance: instanceId });
  const outage = new OutageLog(logger);
  const releases = new PendingWrites(outage);
  const poller = startPoller({
    intervalMs: options.intervalMs ?? SECOND,
    clock: deps.clock,
    pass: async (stopping) => {
      // Claims this instance could not release go first, so none of them runs out and is taken over (sent twice).
      await releases.retry('releasing a low-balance claim failed');
      const report = await sendPendingLowBalance(deps, { shouldStop: stopping, outage, releases });
      if (report.handled > 0) logger.debug(report, 'low-balance notifications done');
      // A pass whose releases are still waiting has not seen the store back.
      await releases.retry('releasing a low-balance claim failed');
    },
    onError: (error) => outage.report(error, 'low-balance pass failed'),
    outage,
  });
  const stop = async (): Promise<void> => {
    await poller();
    await releases.close();
  };
  return Object.assign(stop, { wake: () => poller.wake() });
}
