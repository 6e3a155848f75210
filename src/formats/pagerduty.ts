import { lowBalanceSentence, plainBody, rechargeHint, subjectOf } from './message.js';
import type { InboundEmailPayload, LowBalanceEvent } from './payloads.js';
import { singleLine, truncate } from './text.js';

/** PagerDuty Events API v2 trigger events (docs/contract.md#formats, #low-balance). */

export const PAGERDUTY_LIMITS = {
  summary: 1024,
  dedupKey: 255,
  /** Ours: the Events API refuses events over 512 KB, and a mail body may be 1 MiB. */
  detailsText: 100_000,
  /** Ours, like the summary's: header-derived values of any length must not fill the event. */
  source: 1024,
  fromName: 1024,
} as const;

export interface PagerDutyEvent {
  routing_key: string;
  event_action: 'trigger';
  dedup_key?: string;
  payload: {
    summary: string;
    source: string;
    severity: 'info' | 'warning';
    timestamp: string;
    custom_details: Record<string, string | number>;
  };
}

export function pagerDutyEmail(payload: InboundEmailPayload, routingKey: string): PagerDutyEvent {
  const name = truncate(singleLine(payload.from.name ?? ''), PAGERDUTY_LIMITS.fromName);
  const details: Record<string, string> = {
    text: truncate(plainBody(payload, PAGERDUTY_LIMITS.detailsText), PAGERDUTY_LIMITS.detailsText),
  };
  if (name !== '') details.from_name = name;
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    // Omitted when empty: PagerDuty then derives one instead of refusing the event.
    ...(payload.externalMessageId === ''
      ? {}
      : { dedup_key: truncate(payload.externalMessageId, PAGERDUTY_LIMITS.dedupKey) }),
    payload: {
      summary: truncate(subjectOf(payload), PAGERDUTY_LIMITS.summary),
      // `source` is required by PagerDuty; a relay could in theory report no address.
      source: payload.from.email === '' ? 'unknown sender' : truncate(payload.from.email, PAGERDUTY_LIMITS.source),
      severity: 'info',
      timestamp: payload.receivedAt,
      custom_details: details,
    },
  };
}

/** Severity `warning`: running out of credits stops the service, unlike an ordinary mail. */
export function pagerDutyLowBalance(event: LowBalanceEvent, routingKey: string, publicUrl?: string): PagerDutyEvent {
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    // One incident per crossing of the threshold, however often the worker retries.
    dedup_key: `low-balance-${event.token_hash}-${event.timestamp}`,
    payload: {
      // The incident's title: it says what it is, as every format's first words do (`Low balance`).
      summary: `Low balance: ${lowBalanceSentence(event)}`,
      source: 'coinop',
      severity: 'warning',
      timestamp: event.timestamp,
      custom_details: {
        wallet: event.wallet,
        threshold: event.threshold,
        token_hash: event.token_hash,
        recharge: rechargeHint(publicUrl),
      },
    },
  };
}
