import { createHmac, randomBytes } from 'node:crypto';
import type { Deps } from '../../deps.js';
import type { DeliveryResult } from '../../outbound/outbound-client.js';
import { logId } from '../../lib/ids.js';

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Standard Webhooks signature headers (https://www.standardwebhooks.com):
 * HMAC-SHA256 over `${id}.${timestamp}.${body}` with the base64-decoded secret.
 */
export function signatureHeaders(secret: string, messageId: string, timestampSeconds: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return { 'webhook-id': messageId, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` };
}

/** JSON serialised already (the inbound outbox stores it so): delivered as these exact bytes. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** What caused a delivery (the metrics' `trigger` label). */
export type DeliveryTrigger = 'mail' | 'schedule' | 'low-balance' | 'test';

export interface Delivery {
  readonly trigger: DeliveryTrigger;
  readonly walletId: number;
  readonly webhookId: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly signingSecret?: string;
  /** The value to POST, or its JSON already serialised (the inbound outbox stores it so). */
  readonly body: unknown;
  /** Credits this delivery was charged and the balance after it, for the log. */
  readonly cost: number;
  readonly balance: number;
}

/** The status a delivery is logged with: the receiver's answer, or 502 when none came. */
function deliveryStatus(result: DeliveryResult): number {
  return result.status ?? (result.ok ? 200 : 502);
}

/**
 * Sends one callback: signed, through the SSRF-safe outbound client, no retry (SPEC: best effort).
 * Logged as `webhook-delivery` with the webhookId as path, unless `log` is false (the test route is
 * logged by metering instead).
 */
export async function deliver(deps: Deps, delivery: Delivery, options: { log?: boolean } = {}): Promise<DeliveryResult> {
  // Serialised once: the signed text is handed over as is, so the signed bytes are the bytes sent.
  const body = delivery.body instanceof JsonText ? delivery.body : new JsonText(JSON.stringify(delivery.body) ?? 'null');
  const signed =
    delivery.signingSecret === undefined ? {} : signatureHeaders(delivery.signingSecret, `msg_${logId()}`, Math.floor(deps.clock.now() / 1000), body.text);
  const result = await deps.outbound.deliverJson(delivery.url, body.text, { ...delivery.headers, ...signed });
  deps.metrics.delivered(delivery.trigger, result.ok, result.elapsedMs / 1000);
  if (options.log !== false) {
    deps.ledger.record({
      walletId: delivery.walletId,
      method: 'POST',
      path: delivery.webhookId,
      endpoint: 'webhook-delivery',
      statusCode: deliveryStatus(result),
      responseTimeMs: Math.round(result.elapsedMs),
      error: result.ok ? undefined : `webhook call failed: ${result.cause}`,
      cost: delivery.cost,
      balance: delivery.balance,
    });
  }
  return result;
}
