import { createHmac } from 'node:crypto';
import { DAY } from '../../lib/time.js';
import type { WebhookRecord } from './webhook-record.js';

/**
 * How long after a rotation deliveries still carry the previous secret's signature, so a receiver can
 * switch its secret without rejecting a message in between (docs/reference.md#webhooks-schedules-inbound-e-mail).
 */
export const SIGNING_KEY_OVERLAP_MS = DAY;

/** The keys a delivery is signed with: the current secret, and the one a rotation replaced with its time. */
export interface SigningKeys {
  readonly current: string;
  readonly previous?: string;
  readonly rotatedAt?: number;
}

/** A webhook's signing keys as stored. */
export function signingKeysOf(record: Pick<WebhookRecord, 'signingSecret' | 'previousSigningKey'>): SigningKeys {
  const previous = record.previousSigningKey;
  return previous === undefined
    ? { current: record.signingSecret }
    : { current: record.signingSecret, previous: previous.secret, rotatedAt: previous.rotatedAt };
}

/** The secrets that sign at `now`: the current one, then the previous one while the overlap lasts. */
export function secretsInForce(keys: SigningKeys, now: number): string[] {
  const overlapping =
    keys.previous !== undefined && keys.rotatedAt !== undefined && now - keys.rotatedAt < SIGNING_KEY_OVERLAP_MS;
  return overlapping ? [keys.current, keys.previous] : [keys.current];
}

/** Standard Webhooks v1: HMAC-SHA256 over `${id}.${timestamp}.${body}` with the base64-decoded `whsec_` secret. */
function sign(secret: string, signedContent: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return createHmac('sha256', key).update(signedContent).digest('base64');
}

/** What a signature covers: the message's id (webhook-id), its timestamp in seconds and the exact body text. */
export interface SignedMessage {
  readonly messageId: string;
  readonly timestampSeconds: number;
  readonly body: string;
}

/**
 * Standard Webhooks signature headers (https://www.standardwebhooks.com). Within SIGNING_KEY_OVERLAP_MS of a
 * rotation `webhook-signature` holds two space-separated signatures, the current secret's first; a receiver
 * accepts the message if any one verifies, so it verifies under either secret.
 */
export function signatureHeadersFor(keys: SigningKeys, message: SignedMessage, now: number): Record<string, string> {
  const { messageId, timestampSeconds, body } = message;
  const signedContent = `${messageId}.${timestampSeconds}.${body}`;
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secretsInForce(keys, now)
      .map((secret) => `v1,${sign(secret, signedContent)}`)
      .join(' '),
  };
}
