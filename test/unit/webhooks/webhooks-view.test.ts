import { describe, expect, it } from 'vitest';
import { webhookView } from '../../../src/features/webhooks/webhooks.view.js';
import { testInboundEmail, testScheduledRun } from '../../../src/features/webhooks/test-payloads.js';
import type { WebhookRecord } from '../../../src/features/webhooks/webhook-record.js';
import { NO_HISTORY } from '../../../src/features/webhooks/webhook-record.js';

const context = { mailDomain: 'mx.example.org', walletHash: 'h'.repeat(64) };
const base = {
  webhookId: 'w',
  url: 'https://hooks.example.com/w',
  headers: { Authorization: 'Bearer x' },
  signingSecret: 'whsec_secret',
  history: NO_HISTORY,
  createdAt: 0,
  updatedAt: 0,
};
const mailbox: WebhookRecord = {
  ...base,
  mailbox: 'r_abcdefghijklmnop',
  mode: {
    kind: 'mailbox',
    format: 'custom',
    template: { a: '{{subject}}' },
    options: { routing_key: 'r', chat_id: 'c', Password: 'p' },
    includeAttachments: true,
  },
};
const scheduled: WebhookRecord = {
  ...base,
  mailbox: null,
  mode: {
    kind: 'scheduled',
    cron: '0 9 * * *',
    timezone: 'UTC',
    active: true,
    nextRunAt: Date.parse('2026-06-02T09:00:00.000Z'),
  },
};

describe('webhookView', () => {
  it('writes a mailbox webhook in the contract’s order with redacted headers and options', () => {
    const view = webhookView(mailbox, context);
    expect(Object.keys(view)).toEqual([
      'webhookId',
      'webhook',
      'headers',
      'format',
      'template',
      'options',
      'includeAttachments',
      'email',
      'hash',
    ]);
    expect(view).toStrictEqual({
      webhookId: 'w',
      webhook: 'https://hooks.example.com/w',
      headers: { Authorization: '***' },
      format: 'custom',
      template: { a: '{{subject}}' },
      options: { routing_key: '***', chat_id: 'c', Password: '***' },
      includeAttachments: true,
      email: 'r_abcdefghijklmnop@mx.example.org',
      hash: context.walletHash,
    });
  });

  it('omits format when none and template unless the format is custom', () => {
    const none = webhookView({ ...mailbox, mode: { ...mailbox.mode, format: null } as WebhookRecord['mode'] }, context);
    expect(Object.keys(none)).toEqual([
      'webhookId',
      'webhook',
      'headers',
      'options',
      'includeAttachments',
      'email',
      'hash',
    ]);
    const slack = webhookView(
      { ...mailbox, mode: { ...mailbox.mode, format: 'slack' } as WebhookRecord['mode'] },
      context,
    );
    expect(slack).not.toHaveProperty('template');
  });

  it('writes a scheduled webhook with schedule and no mailbox fields; run history once there is one', () => {
    expect(webhookView(scheduled, context)).toStrictEqual({
      webhookId: 'w',
      webhook: 'https://hooks.example.com/w',
      headers: { Authorization: '***' },
      schedule: { cron: '0 9 * * *', timezone: 'UTC', active: true, nextRunAt: '2026-06-02T09:00:00.000Z' },
      hash: context.walletHash,
    });
    const ran = webhookView(
      {
        ...scheduled,
        history: { lastRunAt: Date.parse('2026-06-01T09:00:00.000Z'), lastStatus: 'success', lastError: null },
      },
      context,
    );
    expect(ran.schedule).toStrictEqual({
      cron: '0 9 * * *',
      timezone: 'UTC',
      active: true,
      nextRunAt: '2026-06-02T09:00:00.000Z',
      lastRunAt: '2026-06-01T09:00:00.000Z',
      lastStatus: 'success',
    });
  });

  it('adds the signing secret last, only when given', () => {
    expect(webhookView(scheduled, context)).not.toHaveProperty('signingSecret');
    expect(Object.keys(webhookView(scheduled, context, 'whsec_new')).at(-1)).toBe('signingSecret');
  });
});

describe('test payloads', () => {
  const now = Date.parse('2026-06-01T12:00:00.000Z');

  it('builds the inbound test email of the contract with a fresh id each time', () => {
    const payload = testInboundEmail('r_x@mx.example.org', now);
    expect(payload).toMatchObject({
      receivedAt: '2026-06-01T12:00:00.000Z',
      from: { email: 'test@example.com', name: 'Test User' },
      to: [{ email: 'r_x@mx.example.org' }],
      cc: [],
      subject: 'Test webhook',
      headers: {},
      attachments: [],
      provider: 'test',
    });
    expect(payload.text.length).toBeGreaterThan(0);
    expect(payload.html).toContain(payload.text);
    expect(payload.externalMessageId).toMatch(/^test-[a-z2-7]{16}$/);
    expect(testInboundEmail('r_x@mx.example.org', now).externalMessageId).not.toBe(payload.externalMessageId);
  });

  it('builds the scheduled test run with both times now and test true', () => {
    expect(testScheduledRun('nightly', 'abc', now)).toStrictEqual({
      type: 'scheduled_webhook_run',
      webhookId: 'nightly',
      scheduledFor: '2026-06-01T12:00:00.000Z',
      executedAt: '2026-06-01T12:00:00.000Z',
      walletHash: 'abc',
      test: true,
    });
  });
});
