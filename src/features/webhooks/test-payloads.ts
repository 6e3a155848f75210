import { base32Id } from '../../lib/ids.js';
import { isoTime } from '../../lib/time.js';
import type { InboundEmailPayload, ScheduledRunPayload } from '../../formats/index.js';

/** Dummy payloads of POST /webhook/{webhookId}/test (docs/contract.md#deliveries). */

export const TEST_SUBJECT = 'Test webhook';
export const TEST_TEXT = 'This is a test email sent by coinop to check your webhook.';
export const TEST_HTML = '<p>This is a test email sent by coinop to check your webhook.</p>';

/** An inbound email as if sent to the webhook's mailbox; formatted afterwards like a real one. */
export function testInboundEmail(to: string, now: number): InboundEmailPayload {
  return {
    externalMessageId: `test-${base32Id(16)}`,
    receivedAt: isoTime(now),
    from: { email: 'test@example.com', name: 'Test User' },
    to: [{ email: to }],
    cc: [],
    subject: TEST_SUBJECT,
    text: TEST_TEXT,
    html: TEST_HTML,
    headers: {},
    attachments: [],
    provider: 'test',
  };
}

/** A scheduled run happening now, marked as a test. */
export function testScheduledRun(webhookId: string, walletHash: string, now: number): ScheduledRunPayload {
  const at = isoTime(now);
  return { type: 'scheduled_webhook_run', webhookId, scheduledFor: at, executedAt: at, walletHash, test: true };
}
