import { describe, expect, it } from 'vitest';
import {
  checkWebhookId,
  configFromInput,
  configFromPatch,
  scheduledMode,
} from '../../../src/features/webhooks/webhook-rules.js';
import type { WebhookConfig } from '../../../src/features/webhooks/webhook-record.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const URL_A = 'https://hooks.example.com/a';

function accepted<T>(result: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!result.ok) throw new Error(`refused: ${result.error}`);
  return result.value;
}
function refused(result: { ok: boolean; error?: string }): string | undefined {
  expect(result.ok).toBe(false);
  return result.error;
}

const mailbox: WebhookConfig = {
  url: URL_A,
  headers: { 'X-A': '1' },
  mode: {
    kind: 'mailbox',
    format: 'telegram',
    template: { t: '{{subject}}' },
    options: { chat_id: '7' },
    includeAttachments: false,
  },
};
const scheduled: WebhookConfig = {
  url: URL_A,
  headers: {},
  mode: {
    kind: 'scheduled',
    cron: '0 9 * * *',
    timezone: 'Europe/Rome',
    active: true,
    nextRunAt: Date.parse('2026-06-02T07:00:00.000Z'),
  },
};

describe('checkWebhookId', () => {
  it('reserves call and nothing else', () => {
    expect(checkWebhookId('call')).toBe('Invalid webhookId: call is reserved');
    expect(checkWebhookId('Call')).toBeNull();
    expect(checkWebhookId('default')).toBeNull();
  });
});

describe('configFromInput', () => {
  it('chooses mailbox mode without schedule, with defaults', () => {
    expect(accepted(configFromInput({ url: URL_A }, NOW))).toStrictEqual({
      url: URL_A,
      headers: {},
      mode: { kind: 'mailbox', format: null, template: null, options: {}, includeAttachments: true },
    });
  });

  it('stores format "" as no format', () => {
    expect(accepted(configFromInput({ url: URL_A, format: '' }, NOW)).mode).toMatchObject({
      kind: 'mailbox',
      format: null,
    });
  });

  it('chooses scheduled mode with a schedule: trimmed cron, canonical zone, next run computed from now', () => {
    expect(
      accepted(configFromInput({ url: URL_A, schedule: { cron: ' 0 9 * * * ', timezone: 'EUROPE/ROME' } }, NOW)).mode,
    ).toStrictEqual({
      kind: 'scheduled',
      cron: '0 9 * * *',
      timezone: 'Europe/Rome',
      active: true,
      nextRunAt: Date.parse('2026-06-02T07:00:00.000Z'),
    });
  });

  it('leaves nextRunAt null for an inactive schedule but still validates it', () => {
    expect(
      accepted(configFromInput({ url: URL_A, schedule: { cron: '*/5 * * * *', timezone: 'UTC', active: false } }, NOW))
        .mode,
    ).toMatchObject({
      active: false,
      nextRunAt: null,
    });
    expect(
      refused(configFromInput({ url: URL_A, schedule: { cron: '0 0 29 * *', timezone: 'UTC', active: false } }, NOW)),
    ).toBe('Invalid schedule.cron: interval between runs exceeds 31 days');
  });

  it.each(['format', 'template', 'options', 'includeAttachments'] as const)(
    'refuses %s together with a schedule',
    (field) => {
      const value = { format: 'slack', template: {}, options: {}, includeAttachments: true }[field];
      expect(
        refused(configFromInput({ url: URL_A, schedule: { cron: '0 9 * * *', timezone: 'UTC' }, [field]: value }, NOW)),
      ).toBe(`Invalid field combination: ${field} is for mailbox webhooks and cannot be sent with schedule`);
    },
  );

  it('checks headers and format rules', () => {
    expect(refused(configFromInput({ url: URL_A, headers: { 'Transfer-Encoding': 'x' } }, NOW))).toBe(
      'Invalid headers: "Transfer-Encoding" cannot be set',
    );
    expect(refused(configFromInput({ url: URL_A, format: 'pagerduty' }, NOW))).toBe(
      'Invalid format: pagerduty requires options.routing_key',
    );
    expect(refused(configFromInput({ url: URL_A, schedule: { cron: '@hourly', timezone: 'UTC' } }, NOW))).toMatch(
      /^Invalid schedule\.cron: @ shortcuts/,
    );
  });
});

describe('configFromPatch', () => {
  it('changes only the given fields of a mailbox webhook', () => {
    expect(accepted(configFromPatch(mailbox, { url: 'https://b.example.com/' }, NOW))).toStrictEqual({
      ...mailbox,
      url: 'https://b.example.com/',
    });
    expect(accepted(configFromPatch(mailbox, { includeAttachments: true }, NOW)).mode).toStrictEqual({
      ...mailbox.mode,
      includeAttachments: true,
    });
  });

  it('replaces headers and options wholesale; {} and null clear them; template null removes it', () => {
    expect(accepted(configFromPatch(mailbox, { headers: { 'X-B': '2' } }, NOW)).headers).toStrictEqual({ 'X-B': '2' });
    expect(accepted(configFromPatch(mailbox, { headers: null }, NOW)).headers).toStrictEqual({});
    expect(accepted(configFromPatch(mailbox, { options: { chat_id: '9' } }, NOW)).mode).toMatchObject({
      options: { chat_id: '9' },
    });
    expect(refused(configFromPatch(mailbox, { options: {} }, NOW))).toBe(
      'Invalid format: telegram requires options.chat_id',
    );
    expect(accepted(configFromPatch(mailbox, { format: '', options: null, template: null }, NOW)).mode).toStrictEqual({
      kind: 'mailbox',
      format: null,
      template: null,
      options: {},
      includeAttachments: false,
    });
  });

  it('refuses mailbox fields on a scheduled webhook unless schedule is null', () => {
    expect(refused(configFromPatch(scheduled, { options: {} }, NOW))).toBe(
      'Invalid field combination: options is for mailbox webhooks and this webhook is scheduled (send "schedule": null to switch)',
    );
    expect(
      refused(configFromPatch(mailbox, { schedule: { cron: '0 9 * * *', timezone: 'UTC' }, format: 'slack' }, NOW)),
    ).toBe('Invalid field combination: format is for mailbox webhooks and cannot be sent with schedule');
    expect(accepted(configFromPatch(scheduled, { schedule: null, format: 'slack' }, NOW)).mode).toStrictEqual({
      kind: 'mailbox',
      format: 'slack',
      template: null,
      options: {},
      includeAttachments: true,
    });
  });

  it('keeps the schedule untouched, nextRunAt included, when the patch does not name it', () => {
    expect(
      accepted(configFromPatch(scheduled, { url: 'https://c.example.com/' }, new Date('2026-06-01T20:00:00.000Z')))
        .mode,
    ).toBe(scheduled.mode);
  });

  it('merges a partial schedule and recomputes nextRunAt', () => {
    expect(accepted(configFromPatch(scheduled, { schedule: { active: false } }, NOW)).mode).toStrictEqual({
      kind: 'scheduled',
      cron: '0 9 * * *',
      timezone: 'Europe/Rome',
      active: false,
      nextRunAt: null,
    });
    expect(accepted(configFromPatch(scheduled, { schedule: { timezone: 'UTC' } }, NOW)).mode).toMatchObject({
      cron: '0 9 * * *',
      timezone: 'UTC',
      active: true,
      nextRunAt: Date.parse('2026-06-02T09:00:00.000Z'),
    });
    expect(refused(configFromPatch(scheduled, { schedule: { timezone: 'Nowhere/Land' } }, NOW))).toBe(
      'Invalid schedule.timezone: unknown IANA time zone "Nowhere/Land"',
    );
  });

  it('makes a mailbox webhook scheduled only with both cron and timezone', () => {
    expect(refused(configFromPatch(mailbox, { schedule: { cron: '0 9 * * *' } }, NOW))).toBe(
      'Missing required field: schedule.timezone',
    );
    expect(refused(configFromPatch(mailbox, { schedule: { timezone: 'UTC' } }, NOW))).toBe(
      'Missing required field: schedule.cron',
    );
    expect(
      accepted(configFromPatch(mailbox, { schedule: { cron: '0 9 * * *', timezone: 'UTC', active: false } }, NOW)),
    ).toStrictEqual({
      url: URL_A,
      headers: { 'X-A': '1' },
      mode: { kind: 'scheduled', cron: '0 9 * * *', timezone: 'UTC', active: false, nextRunAt: null },
    });
  });

  it('keeps a mailbox webhook in mailbox mode on schedule null', () => {
    expect(accepted(configFromPatch(mailbox, { schedule: null }, NOW))).toStrictEqual(mailbox);
  });
});

describe('scheduledMode', () => {
  it('computes the next run in the schedule’s zone across a DST change', () => {
    // Europe/Berlin springs forward on 2026-03-29: 02:30 does not exist and fires at 03:00 local (01:00Z).
    expect(
      accepted(
        scheduledMode(
          { cron: '30 2 * * *', timezone: 'Europe/Berlin', active: true },
          new Date('2026-03-28T12:00:00Z'),
        ),
      ).nextRunAt,
    ).toBe(Date.parse('2026-03-29T01:00:00.000Z'));
  });
});
