import { describe, expect, it } from 'vitest';
import { isRetryable, MAX_RETRY_DELAY_MS, retryDelayMs } from '../../../src/delivery-core/retry-policy.js';

describe('retry policy', () => {
  it('waits 30 s after the first attempt, doubling after each further one, within ±20 % jitter', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(30_000, attempt, () => 0.5))).toStrictEqual([
      30_000, 60_000, 120_000, 240_000,
    ]);
    expect(retryDelayMs(30_000, 1, () => 0)).toBe(24_000);
    expect(retryDelayMs(30_000, 1, () => 0.999_999)).toBe(36_000);
  });

  it('never waits more than 10 hours', () => {
    expect(retryDelayMs(30_000, 30, () => 0.999_999)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(3_600_000, 8, () => 0)).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
  });

  it('retries no answer, 5xx, 408 and 429; a 2xx or any other 4xx ends the delivery', () => {
    const failed = (status?: number) => ({ ok: false as const, status, cause: 'x', elapsedMs: 1 });
    expect([failed(), failed(500), failed(503), failed(408), failed(429)].every(isRetryable)).toBe(true);
    expect([failed(400), failed(404), failed(410), failed(422)].some(isRetryable)).toBe(false);
    expect(isRetryable({ ok: true, status: 200, elapsedMs: 1 })).toBe(false);
  });
});
