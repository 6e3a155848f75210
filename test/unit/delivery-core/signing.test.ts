import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { SIGNING_KEY_OVERLAP_MS, signatureHeadersFor } from '../../../src/delivery-core/signing.js';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const BODY = '{"hello":"world"}';

/** Whether `headers` verify under `key` with the standardwebhooks library, at the signature's own time. */
function verifies(key: string, headers: Record<string, string>): boolean {
  try {
    new Webhook(key).verify(BODY, headers);
    return true;
  } catch {
    return false;
  }
}

describe('signatureHeadersFor', () => {
  const [current, previous] = [secret(), secret()];
  const rotatedAt = Date.now() - SIGNING_KEY_OVERLAP_MS / 2;
  const at = (now: number) =>
    signatureHeadersFor(
      { current, previous, rotatedAt },
      { messageId: 'msg_1', timestampSeconds: Math.floor(Date.now() / 1000), body: BODY },
      now,
    );

  it('signs with the current secret only when there is no previous one', () => {
    const headers = signatureHeadersFor(
      { current },
      { messageId: 'msg_1', timestampSeconds: Math.floor(Date.now() / 1000), body: BODY },
      Date.now(),
    );
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect([verifies(current, headers), verifies(previous, headers)]).toStrictEqual([true, false]);
  });

  it('adds the previous secret’s signature after the current one until the overlap ends', () => {
    for (const now of [rotatedAt, rotatedAt + SIGNING_KEY_OVERLAP_MS - 1]) {
      const headers = at(now);
      expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
      expect([verifies(current, headers), verifies(previous, headers)]).toStrictEqual([true, true]);
      const [first] = headers['webhook-signature']?.split(' ') ?? [];
      expect(verifies(current, { ...headers, 'webhook-signature': String(first) })).toBe(true);
    }
    const after = at(rotatedAt + SIGNING_KEY_OVERLAP_MS);
    expect(after['webhook-signature']?.split(' ')).toHaveLength(1);
    expect([verifies(current, after), verifies(previous, after)]).toStrictEqual([true, false]);
  });
});
