import type { Deps } from '../deps.js';
import type { DeliveryResult } from '../outbound/outbound-client.js';
import { logId } from '../lib/ids.js';
import { DAY } from '../lib/time.js';
import { cutText } from '../lib/cut-text.js';
import { MAX_LOG_TEXT } from '../ledger/log-entry.js';
import type { Delivery, DeliveryTrigger } from './delivery.js';
import { JsonText } from './delivery.js';
import { recordAttempt } from './history.js';

/** Deliveries and their attempts are kept as long as the call log (README "Call logs"), then swept. */
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

/**
 * Sends one callback, the only way any webhook call leaves the service: signed (when the webhook has keys),
 * through the SSRF-safe outbound client, one attempt (SPEC: no retry, best effort). The attempt is recorded in
 * the delivery history and the call log (`webhook-delivery`, the webhookId as path, the delivery id beside it).
 * Never throws: a failed delivery is an outcome, and a history the store could not take is only logged.
 */
export async function deliver(deps: Deps, delivery: Delivery): Promise<Delivered> {
  const deliveryId = `msg_${logId()}`;
  const startedAt = deps.clock.now();
  // Serialised once: the signed text is handed over as is, so the signed bytes are the bytes sent.
  const body = delivery.body instanceof JsonText ? delivery.body : new JsonText(JSON.stringify(delivery.body) ?? 'null');
  const signed = delivery.sign?.(deliveryId, Math.floor(startedAt / 1000), body.text, startedAt) ?? {};
  const result = await deps.outbound.deliverJson(delivery.url, body.text, { ...delivery.headers, ...signed });
  deps.metrics.delivered(METRIC_TRIGGER[delivery.trigger], result.ok, result.elapsedMs / 1000);
  const statusCode = deliveryStatus(result);
  const ms = Math.round(result.elapsedMs);
  deps.ledger.record({
    walletId: delivery.walletId,
    method: 'POST',
    path: delivery.webhookId,
    endpoint: 'webhook-delivery',
    statusCode,
    responseTimeMs: ms,
    error: result.ok ? undefined : `webhook call failed: ${result.cause}`,
    cost: delivery.cost,
    balance: delivery.balance,
    deliveryId,
  });
  const error = result.ok ? null : cutText(result.cause, MAX_LOG_TEXT);
  try {
    await recordAttempt(
      deps.store,
      {
        id: deliveryId,
        walletId: delivery.walletId,
        webhookId: delivery.webhookId,
        trigger: delivery.trigger,
        createdAt: startedAt,
        status: result.ok ? 'success' : 'failure',
        attempts: 1,
        lastAttemptAt: startedAt,
        nextAttemptAt: null,
        lastStatusCode: result.status ?? null,
        lastError: error,
        url: delivery.url,
        cost: delivery.cost,
        // SPEC (webhook delivery rule 5): routed e-mail content is not retained after delivery.
        body: delivery.trigger === 'email' ? null : storedBody(body.text),
      },
      {
        deliveryId,
        attempt: 1,
        at: startedAt,
        url: delivery.url,
        statusCode: result.status ?? null,
        ms,
        error,
        responseBody: result.responseExcerpt ?? null,
        willRetry: false,
      },
    );
  } catch (failure) {
    // The call happened and is in the call log; only its history row is missing (the store is away).
    deps.logger.warn({ err: failure, deliveryId }, 'recording a delivery attempt failed');
  }
  return { ...result, deliveryId };
}
