import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNING_KEY_OVERLAP_MS } from '../../../src/delivery-core/signing.js';
import { signingKeysOf } from '../../../src/features/webhooks/delivery.js';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;

describe('signingKeysOf', () => {
  const [current, previous] = [secret(), secret()];
  const rotatedAt = Date.now() - SIGNING_KEY_OVERLAP_MS / 2;

  it('takes a stored webhook’s keys as they are', () => {
    expect(signingKeysOf({ signingSecret: current })).toStrictEqual({ current });
    expect(
      signingKeysOf({ signingSecret: current, previousSigningKey: { secret: previous, rotatedAt } }),
    ).toStrictEqual({ current, previous, rotatedAt });
  });
});
