/**
 * Sample events for the preview: what a delivery would carry, built here because the service's own test payloads
 * (src/features/webhooks/test-payloads.ts) draw their ids from node:crypto. Same shapes (docs/contract.md#deliveries).
 */
import type { InboundEmailPayload, ScheduledRunPayload } from '../../../../src/formats/index.js';

/** A sample mail to `mailbox`; with attachments, one PDF's metadata (without, the service strips them). */
export function sampleEmail(mailbox: string, includeAttachments: boolean, now: Date): InboundEmailPayload {
  const receivedAt = now.toISOString();
  const expires = new Date(now.getTime() + 7 * 24 * 3600 * 1000).toISOString();
  return {
    externalMessageId: '<CAF3x9Q@mail.example.com>',
    receivedAt,
    from: { email: 'ann.lee@example.com', name: 'Ann Lee' },
    to: [{ email: mailbox }],
    cc: [],
    subject: 'Invoice 2026-0412 is ready',
    text: 'Hello,\n\nyour invoice for April is attached. The total is 42.00 EUR, due in 14 days.\n\nThanks,\nAnn',
    html: '<p>Hello,</p><p>your invoice for April is attached. The total is <b>42.00 EUR</b>, due in 14 days.</p><p>Thanks,<br>Ann</p>',
    headers: { 'message-id': '<CAF3x9Q@mail.example.com>', 'content-type': 'multipart/mixed' },
    attachments: includeAttachments
      ? [
          {
            filename: 'invoice-2026-0412.pdf',
            contentType: 'application/pdf',
            size: 48213,
            downloadUrl: 'https://coinop.example/attachments/…',
            downloadUrlExpiresAt: expires,
          },
        ]
      : [],
    provider: 'smtp',
  };
}

/** A run of the schedule at its next time (or now), as the scheduler sends it. */
export function sampleRun(webhookId: string, walletHash: string, scheduledFor: Date): ScheduledRunPayload {
  const at = scheduledFor.toISOString();
  return { type: 'scheduled_webhook_run', webhookId, scheduledFor: at, executedAt: at, walletHash };
}

/** A stand-in until the webhook has an address of its own (the service assigns it on create). */
export const SAMPLE_MAILBOX = 'r_xxxxxxxxxxxxxxxx@your-mail-domain';
/** What `walletHash` holds: SHA-256 of the token, which the console does not compute for a preview. */
export const SAMPLE_WALLET_HASH = '<sha-256 of your token>';
