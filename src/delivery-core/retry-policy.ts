import type { DeliveryResult } from '../outbound/outbound-client.js';
import { HOUR, MINUTE } from '../lib/time.js';

/**
 * Opt-in retries (docs/reference.md#delivery-retries): absent or 0 keeps the single attempt of docs/contract.md#deliveries, rule 2.
 * A webhook's `retry.attempts` is how many attempts may follow the first one.
 */
export const MAX_RETRY_ATTEMPTS = 8;
export const RETRY_BACKOFFS = ['exponential'] as const;
/** No gap between two attempts is longer, whatever the base. */
export const MAX_RETRY_DELAY_MS = 10 * HOUR;
/** Each gap is moved by up to this share either way, so deliveries failed together do not come back together. */
export const RETRY_JITTER = 0.2;

/**
 * Worth another attempt: no answer (refused, reset, timeout) or an answer saying "later" (5xx, 408, 429).
 * A 2xx ends a delivery as a success, any other 4xx as a failure: the receiver refused this message.
 */
export function isRetryable(result: DeliveryResult): boolean {
  if (result.ok) return false;
  const status = result.status;
  return status === undefined || status >= 500 || status === 408 || status === 429;
}

/**
 * The wait after attempt `attempt` (1 for the first) failed: `baseMs` doubled for each attempt before it
 * (30 s, 1 min, 2 min … with the default base), capped at MAX_RETRY_DELAY_MS, then jittered by ±RETRY_JITTER.
 * `random` in [0, 1) is injectable for tests.
 */
export function retryDelayMs(baseMs: number, attempt: number, random: () => number = Math.random): number {
  const exponential = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = exponential * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random());
  return Math.max(1, Math.round(Math.min(MAX_RETRY_DELAY_MS, jittered)));
}

/**
 * A wallet's retry budget (docs/limits.md "Delivery retries"): the deliveries it may have pending retry at once, and
 * their kept bodies' bytes. A failed delivery that would go over either ends as a failure instead, so what one wallet
 * keeps in retry (and sends again) stays bounded whatever it spends.
 */
export const RETRY_BUDGET_DELIVERIES = 64;
export const RETRY_BUDGET_BYTES = 4 * 1024 * 1024;

/** The `last_error` of a delivery its wallet's retry budget had no room for (the attempt's own error after it). */
export function retryBudgetFullError(attemptError: string | null): string {
  const budget = `retry budget full: at most ${RETRY_BUDGET_DELIVERIES} deliveries and ${RETRY_BUDGET_BYTES / (1024 * 1024)} MiB per wallet pending retry, not retried`;
  return attemptError === null ? budget : `${budget}; ${attemptError}`;
}

/**
 * How long a delivery's attempt may be in flight before the retry worker takes it as lost (its process died before
 * recording it): far beyond an attempt's 10 s timeout. A retry's claim holds this long; so does the record a charged
 * first attempt leaves before it is sent (deliver.ts), which is how a run cut short by a crash is found again.
 */
export const IN_FLIGHT_LEASE_MS = 5 * MINUTE;

/** What the history and the call log say of an attempt whose process stopped before the receiver answered. */
export const INTERRUPTED_ATTEMPT = 'interrupted: the instance stopped before the receiver answered';
