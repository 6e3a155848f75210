import type { CorePorts } from '../ports.js';
import type { DeliveryResult } from '../outbound/outbound-client.js';
import { logId } from '../lib/ids.js';
import { DAY } from '../lib/time.js';
import { cutText } from '../lib/cut-text.js';
import { MAX_LOG_TEXT } from '../ledger/log-entry.js';
import type { Delivery, DeliveryTarget, DeliveryTrigger } from './delivery.js';
import { JsonText } from './delivery.js';
import type { AttemptRecord, DeliveryRecord } from './history.js';
import { recordAttempt, recordInFlight } from './history.js';
import { IN_FLIGHT_LEASE_MS, isRetryable, retryDelayMs } from './retry-policy.js';
import { recordRedelivery, recordRetry } from './retry.queries.js';
import { signatureHeadersFor } from './signing.js';
import { SIGNATURE_HEADERS } from './delivery-headers.js';

/** The signature follows a redirect to another origin: no secret (an HMAC of the very bytes sent), and a receiver that moved needs it. */
const SIGNED_HEADER_NAMES: readonly string[] = Object.values(SIGNATURE_HEADERS);

/** What sending a delivery uses: the send (outbound), its log line (ledger), its history (store), counts and time. */
export type DeliveryPorts = Pick<
  CorePorts,
  'config' | 'logger' | 'clock' | 'store' | 'ledger' | 'outbound' | 'metrics'
>;
type SendPorts = Pick<CorePorts, 'clock' | 'outbound' | 'metrics' | 'ledger'>;

/** Deliveries and their attempts are kept as long as the call log (docs/reference.md#delivery-history), then swept. */
export const DELIVERY_RETENTION_MS = 7 * DAY;
/** The 1 MiB rule: a body up to this many UTF-8 bytes is kept with its delivery; a larger one is not (body null). */
export const MAX_STORED_BODY_BYTES = 1024 * 1024;

/** The metrics' `trigger` label of each trigger (the names /metrics has always shown). */
const METRIC_TRIGGER: Record<DeliveryTrigger, string> = {
  test: 'test',
  email: 'mail',
  schedule: 'schedule',
  low_balance: 'low-balance',
  redelivery: 'redelivery',
};

/**
 * The triggers whose first attempt is charged and recorded in the history before it is sent, so that one its instance
 * stopped during is found again (history.ts, recordInFlight). Inbound mail's waits in the outbox until it is sent, and
 * is sent again from there; a low-balance notification costs nothing and belongs to no webhook.
 */
const RECORDED_BEFORE_SENDING: ReadonlySet<DeliveryTrigger> = new Set(['schedule', 'test']);

/** A delivery's outcome and its id (`webhook-id`, the key of its history and of its log row). */
export type Delivered = DeliveryResult & { readonly deliveryId: string };

/** The status a delivery is logged with: the receiver's answer, or 502 when none came. */
function deliveryStatus(result: DeliveryResult): number {
  return result.status ?? (result.ok ? 200 : 502);
}

function storedBody(text: string): string | null {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short texts fit without being measured.
  return text.length * 3 <= MAX_STORED_BODY_BYTES || Buffer.byteLength(text) <= MAX_STORED_BODY_BYTES ? text : null;
}

/** One attempt as sent: signed afresh, through the outbound client, counted and logged. */
interface Sent {
  readonly result: DeliveryResult;
  readonly attempt: Omit<AttemptRecord, 'attempt' | 'trigger' | 'willRetry'>;
}

/** What an attempt's call-log row says besides the outcome: whose, what it cost and the balance after. */
interface AttemptLog {
  readonly walletId: number;
  readonly webhookId: string;
  readonly cost: number;
  readonly balance: number;
}

/** One attempt to send: where, under which delivery id, the exact body text, the metric's trigger label and the log row's fields. */
interface Attempt {
  readonly target: DeliveryTarget;
  readonly deliveryId: string;
  readonly bodyText: string;
  readonly metric: string;
  readonly log: AttemptLog;
}

async function sendAttempt(deps: SendPorts, { target, deliveryId, bodyText, metric, log }: Attempt): Promise<Sent> {
  const startedAt = deps.clock.now();
  // Each attempt is signed with a fresh timestamp and the same webhook-id: receivers deduplicate on the id. A
  // delivery with no secret to sign with (a low-balance notification) still carries the id and the timestamp.
  const timestampSeconds = Math.floor(startedAt / 1000);
  const signed =
    target.signingKeys === undefined
      ? { [SIGNATURE_HEADERS.id]: deliveryId, [SIGNATURE_HEADERS.timestamp]: String(timestampSeconds) }
      : signatureHeadersFor(target.signingKeys, { messageId: deliveryId, timestampSeconds, body: bodyText }, startedAt);
  const result = await deps.outbound.deliverJson(
    target.url,
    bodyText,
    { ...target.headers, ...signed },
    SIGNED_HEADER_NAMES,
  );
  deps.metrics.delivered(metric, result.ok, result.elapsedMs / 1000);
  const ms = Math.round(result.elapsedMs);
  deps.ledger.record({
    walletId: log.walletId,
    method: 'POST',
    path: log.webhookId,
    endpoint: 'webhook-delivery',
    statusCode: deliveryStatus(result),
    responseTimeMs: ms,
    error: result.ok ? undefined : `webhook call failed: ${result.cause}`,
    cost: log.cost,
    balance: log.balance,
    deliveryId,
  });
  const error = result.ok ? null : cutText(result.cause, MAX_LOG_TEXT);
  return {
    result,
    attempt: {
      deliveryId,
      at: startedAt,
      url: target.url,
      statusCode: result.status ?? null,
      ms,
      error,
      responseBody: result.responseExcerpt ?? null,
    },
  };
}

/** Records an attempt; a history the store could not take is only logged (the call happened and is in the call log). */
async function keepHistory(
  deps: Pick<CorePorts, 'logger'>,
  deliveryId: string,
  write: () => Promise<unknown>,
): Promise<void> {
  try {
    await write();
  } catch (failure) {
    deps.logger.warn({ err: failure, deliveryId }, 'recording a delivery attempt failed');
  }
}

/**
 * Sends one callback, the only way any webhook call leaves the service: signed (when the webhook has keys),
 * through the SSRF-safe outbound client. One attempt (docs/contract.md#deliveries, rule 2: no retry) unless the webhook opted into retries
 * (`retryAttempts`): then a failure worth retrying leaves the delivery `pending` for the retry worker, its body
 * kept until it ends. The attempt is recorded in the delivery history and the call log (`webhook-delivery`, the
 * webhookId as path, the delivery id beside it). Never throws: a failed delivery is an outcome.
 */
export async function deliver(deps: DeliveryPorts, delivery: Delivery): Promise<Delivered> {
  const deliveryId = delivery.deliveryId ?? `msg_${logId()}`;
  // Serialised once: the signed text is handed over as is, so the signed bytes are the bytes sent.
  const body =
    delivery.body instanceof JsonText ? delivery.body : new JsonText(JSON.stringify(delivery.body) ?? 'null');
  const maxAttempts = 1 + Math.max(0, delivery.retryAttempts ?? 0);
  const kept = storedBody(body.text);
  if (RECORDED_BEFORE_SENDING.has(delivery.trigger)) {
    const now = deps.clock.now();
    await keepHistory(deps, deliveryId, () =>
      recordInFlight(deps.store, {
        id: deliveryId,
        walletId: delivery.walletId,
        webhookId: delivery.webhookId,
        trigger: delivery.trigger,
        createdAt: now,
        status: 'pending',
        attempts: 1,
        maxAttempts,
        lastAttemptAt: null,
        nextAttemptAt: now + IN_FLIGHT_LEASE_MS,
        lastStatusCode: null,
        lastError: null,
        url: delivery.url,
        cost: delivery.cost,
        body: kept,
      }),
    );
  }
  const { result, attempt } = await sendAttempt(deps, {
    target: delivery,
    deliveryId,
    bodyText: body.text,
    metric: METRIC_TRIGGER[delivery.trigger],
    log: delivery,
  });
  // A body over the 1 MiB rule is not kept, so there is nothing to send again: no retry.
  const nextAttemptAt =
    maxAttempts > 1 && kept !== null && isRetryable(result)
      ? attempt.at + retryDelayMs(deps.config.deliveryRetryBaseMs, 1)
      : null;
  const status = result.ok ? 'success' : nextAttemptAt === null ? 'failure' : 'pending';
  await keepHistory(deps, deliveryId, () =>
    recordAttempt(
      deps.store,
      {
        id: deliveryId,
        walletId: delivery.walletId,
        webhookId: delivery.webhookId,
        trigger: delivery.trigger,
        createdAt: attempt.at,
        status,
        attempts: 1,
        maxAttempts,
        lastAttemptAt: attempt.at,
        nextAttemptAt,
        lastStatusCode: attempt.statusCode,
        lastError: attempt.error,
        url: delivery.url,
        cost: delivery.cost,
        // Routed e-mail content is kept only while retries are due: recordAttempt drops it once the delivery ended.
        body: kept,
      },
      { ...attempt, attempt: 1, trigger: delivery.trigger, willRetry: status === 'pending' },
    ),
  );
  return { ...result, deliveryId };
}

/** A later attempt of a recorded delivery: a retry (free) or a redelivery (charged like the first attempt). */
export interface LaterAttempt {
  readonly kind: 'retry' | 'redelivery';
  /** The delivery as recorded, with its body. */
  readonly delivery: DeliveryRecord & { readonly body: string };
  /** Its number, taken before the send (claimDueRetries, reserveAttempt). */
  readonly attempt: number;
  /** Where and how it goes now: the webhook's current URL, headers and signing keys. */
  readonly target: DeliveryTarget;
  readonly cost: number;
  readonly balance: number;
}

/**
 * Sends a recorded delivery again with its delivery id and exact body, a fresh signature, and records the
 * attempt. A retry that fails worth retrying while attempts are left stays `pending`, due after the next backoff.
 */
export async function deliverAgain(
  deps: DeliveryPorts,
  later: LaterAttempt,
): Promise<DeliveryResult & { readonly attempt: number }> {
  const { delivery } = later;
  const trigger: DeliveryTrigger = later.kind === 'redelivery' ? 'redelivery' : delivery.trigger;
  const log = { walletId: delivery.walletId, webhookId: delivery.webhookId, cost: later.cost, balance: later.balance };
  const { result, attempt } = await sendAttempt(deps, {
    target: later.target,
    deliveryId: delivery.id,
    bodyText: delivery.body,
    metric: METRIC_TRIGGER[trigger],
    log,
  });
  const retryLeft = later.kind === 'retry' && later.attempt < delivery.maxAttempts && isRetryable(result);
  const nextAttemptAt = retryLeft ? attempt.at + retryDelayMs(deps.config.deliveryRetryBaseMs, later.attempt) : null;
  const outcome = {
    ok: result.ok,
    at: attempt.at,
    statusCode: attempt.statusCode,
    error: attempt.error,
    nextAttemptAt,
  };
  const record: AttemptRecord = { ...attempt, attempt: later.attempt, trigger, willRetry: retryLeft };
  await keepHistory(deps, delivery.id, () =>
    later.kind === 'retry' ? recordRetry(deps.store, outcome, record) : recordRedelivery(deps.store, outcome, record),
  );
  return { ...result, attempt: later.attempt };
}
