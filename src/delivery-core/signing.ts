import { createHmac, randomBytes } from 'node:crypto';
import { DAY } from '../lib/time.js';
import { SIGNATURE_HEADERS } from './delivery-headers.js';

/**
 * How deliveries are signed (Standard Webhooks v1, https://www.standardwebhooks.com): the secret's format, the HMAC
 * over the exact body sent and the headers carrying it. A delivery's target hands its keys (`DeliveryTarget.signingKeys`);
 * deliver.ts signs each attempt afresh. Which secrets a webhook has, and rotating them, is the webhooks feature's.
 */

/**
 * How long after a rotation deliveries still carry the previous secret's signature, so a receiver can
 * switch its secret without rejecting a message in between (docs/reference.md#webhooks-schedules-inbound-e-mail).
 */
export const SIGNING_KEY_OVERLAP_MS = DAY;

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes (what `sign` decodes). */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The keys a delivery is signed with: the current secret, and the one a rotation replaced with its time. */
export interface SigningKeys {
  readonly current: string;
  readonly previous?: string;
  readonly rotatedAt?: number;
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
 * Standard Webhooks signature headers. Within SIGNING_KEY_OVERLAP_MS of a rotation `webhook-signature` holds two
 * space-separated signatures, the current secret's first; a receiver accepts the message if any one verifies, so
 * it verifies under either secret.
 */
export function signatureHeadersFor(keys: SigningKeys, message: SignedMessage, now: number): Record<string, string> {
  const { messageId, timestampSeconds, body } = message;
  const signedContent = `${messageId}.${timestampSeconds}.${body}`;
  return {
    [SIGNATURE_HEADERS.id]: messageId,
    [SIGNATURE_HEADERS.timestamp]: String(timestampSeconds),
    [SIGNATURE_HEADERS.signature]: secretsInForce(keys, now)
      .map((secret) => `v1,${sign(secret, signedContent)}`)
      .join(' '),
  };
}
