import { randomBytes, randomFillSync } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

// Ids are made on the hot path (one per log row): draw from a pool refilled 4 KiB at a time
// instead of asking the CSPRNG for a few bytes per id.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++] as number;
}

// Characters are written here and decoded once: half the cost of growing a string one character at a time.
const scratch = Buffer.alloc(64);

/** Uniform random string over `alphabet` (ASCII; rejection sampling, so no modulo bias). */
function randomString(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  const out = length <= scratch.length ? scratch : Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const byte = randomByte();
    if (byte < limit) out[filled++] = alphabet.charCodeAt(byte % alphabet.length);
  }
  return out.toString('latin1', 0, length);
}

/** Log entry ids: 20 base62 characters. */
export const logId = (): string => randomString(BASE62, 20);

/** Opaque lowercase base32 id, e.g. for mailbox addresses. */
export const base32Id = (length: number): string => randomString(BASE32, length);

/** API tokens: `coin_` + 43 base64url characters = 256 bits. */
export const newToken = (): string => `coin_${randomBytes(32).toString('base64url')}`;
