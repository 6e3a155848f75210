import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Uniform random string over `alphabet` (rejection sampling, so no modulo bias). */
function randomString(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Log entry ids: 20 base62 characters. */
export const logId = (): string => randomString(BASE62, 20);

/** Opaque lowercase base32 id, e.g. for mailbox addresses. */
export const base32Id = (length: number): string => randomString(BASE32, length);

/** API tokens: `coin_` + 43 base64url characters = 256 bits. */
export const newToken = (): string => `coin_${randomBytes(32).toString('base64url')}`;
