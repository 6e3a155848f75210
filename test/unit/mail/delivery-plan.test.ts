import { describe, expect, it, vi } from 'vitest';
import { planDelivery } from '../../../src/features/mail/delivery-plan.js';
import { keptForPayloads } from '../../../src/features/mail/mime-parse.js';
import type { ParsedMessage } from '../../../src/features/mail/mime-parse.js';
import type { MailboxMode, WebhookRecord } from '../../../src/features/webhooks/webhook-record.js';
import { NO_HISTORY } from '../../../src/features/webhooks/webhook-record.js';

const RECEIVED_AT = Date.parse('2026-06-01T12:00:00.250Z');
const CONTEXT = {
  externalMessageId: 'm@x',
  receivedAt: RECEIVED_AT,
  provider: 'smtp',
  publicUrl: 'https://api.test',
  mailDomain: 'hooks.test',
  envelopeFrom: 'env@x.test',
  size: 1234,
};
const PARSED: ParsedMessage = {
  headers: [['subject', 'S']],
  subject: 'S',
  from: [{ email: 'a@x.test', name: 'A' }],
  to: [],
  cc: [],
  text: 'hello',
  attachments: [
    { filename: 'kept.txt', contentType: 'text/plain', size: 2, content: Buffer.from('ok') },
    { filename: 'huge.iso', contentType: 'application/octet-stream', size: 25_000_000 },
    { contentType: 'image/png', size: 3, contentId: 'img@x', content: Buffer.from('png') },
  ],
};

function target(mode: Partial<MailboxMode> = {}) {
  const full: MailboxMode = {
    kind: 'mailbox',
    format: null,
    template: null,
    options: {},
    includeAttachments: true,
    ...mode,
  };
  const record: WebhookRecord = {
    webhookId: 'w',
    url: 'https://receiver.test/hook',
    headers: {},
    mode: full,
    mailbox: 'r_aaaaaaaaaaaaaaaa',
    signingSecret: 'whsec_x',
    history: NO_HISTORY,
    createdAt: 0,
    updatedAt: 0,
  };
  return { mailbox: 'r_aaaaaaaaaaaaaaaa', walletId: 7, record, mode: full, key: Buffer.alloc(32, 1) };
}

describe('planDelivery', () => {
  it('with attachments: 5 credits, kept ones stored behind signed links expiring 1 h after receipt (whole seconds), big ones listed without a link', () => {
    const plan = planDelivery(PARSED, CONTEXT, target());
    expect(plan.cost).toBe(5);
    const body = JSON.parse(plan.bodyJson) as Record<string, any>;
    expect(body.attachments).toStrictEqual([
      {
        filename: 'kept.txt',
        contentType: 'text/plain',
        size: 2,
        downloadUrl: expect.stringMatching(
          /^https:\/\/api\.test\/mail\/attachments\/\w{20}\?expires=1780318800&signature=/,
        ),
        downloadUrlExpiresAt: '2026-06-01T13:00:00.000Z',
      },
      { filename: 'huge.iso', contentType: 'application/octet-stream', size: 25_000_000 },
      {
        contentType: 'image/png',
        size: 3,
        contentId: 'img@x',
        downloadUrl: expect.any(String),
        downloadUrlExpiresAt: '2026-06-01T13:00:00.000Z',
      },
    ]);
    expect(
      plan.attachments.map((row) => [row.walletId, row.filename, row.content.toString(), row.expiresAt]),
    ).toStrictEqual([
      [7, 'kept.txt', 'ok', Date.parse('2026-06-01T13:00:00.000Z')],
      [7, null, 'png', Date.parse('2026-06-01T13:00:00.000Z')],
    ]);
    expect(body).toMatchObject({
      to: [{ email: 'r_aaaaaaaaaaaaaaaa@hooks.test' }],
      url: 'https://api.test/mailbox/r_aaaaaaaaaaaaaaaa',
      provider: 'smtp',
    });
  });

  it('includeAttachments false: 2 credits, no metadata, nothing to store', () => {
    const plan = planDelivery(PARSED, CONTEXT, target({ includeAttachments: false }));
    expect(plan.cost).toBe(2);
    expect((JSON.parse(plan.bodyJson) as { attachments: unknown[] }).attachments).toStrictEqual([]);
    expect(plan.attachments).toStrictEqual([]);
  });

  it('a message without attachments costs 2', () => {
    expect(planDelivery({ ...PARSED, attachments: [] }, CONTEXT, target()).cost).toBe(2);
  });

  it('without a format, serialises the payload once: the JSON measured by the size rule is the body sent', () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const plan = planDelivery(PARSED, CONTEXT, target());
      const payloads = stringify.mock.calls.filter(
        ([value]) => (value as { provider?: unknown } | null)?.provider === 'smtp',
      );
      expect(payloads).toHaveLength(1);
      expect(JSON.parse(plan.bodyJson)).toStrictEqual(payloads[0]?.[0]);
    } finally {
      stringify.mockRestore();
    }
  });

  it('a custom template over a message larger than 1 MiB keeps its attachments when what it renders fits', () => {
    const big: ParsedMessage = { ...PARSED, html: `<p>${'x'.repeat(1_100_000)}</p>` };
    const template = { files: '{{attachments}}', first: '{{attachments[0].filename}}', truncated: '{{truncated}}' };
    const plan = planDelivery(big, CONTEXT, target({ format: 'custom', template }));
    const body = JSON.parse(plan.bodyJson) as Record<string, any>;
    expect(body.files.map((file: { size: number }) => file.size)).toStrictEqual([2, 25_000_000, 3]);
    expect(body.first).toBe('kept.txt');
    expect(body.truncated).toBe('');
    expect(plan.attachments.map((row) => row.filename)).toStrictEqual(['kept.txt', null]);
    // The raw payload of the same message is cut by the 1 MiB rule: attachments first.
    const raw = JSON.parse(planDelivery(big, CONTEXT, target()).bodyJson) as Record<string, any>;
    expect([raw.attachments, raw.truncated]).toStrictEqual([[], true]);
  });

  it('a custom template that renders the whole of a larger message is cut to 1 MiB by its own rule', () => {
    const big: ParsedMessage = { ...PARSED, html: `<p>${'x'.repeat(1_100_000)}</p>` };
    const template = { html: '{{html}}', truncated: '{{truncated}}' };
    const plan = planDelivery(big, CONTEXT, target({ format: 'custom', template }));
    expect(Buffer.byteLength(plan.bodyJson)).toBeLessThanOrEqual(1024 * 1024);
    expect(JSON.parse(plan.bodyJson)).toMatchObject({ truncated: true });
  });

  it('applies the webhook’s format to the payload', () => {
    const plan = planDelivery(PARSED, CONTEXT, target({ format: 'slack' }));
    expect(JSON.parse(plan.bodyJson)).toStrictEqual({ text: '*S*\nFrom: A &lt;a@x.test&gt;\nhello' });
  });
});

describe('keptForPayloads: text parts cut to what a payload can use', () => {
  const LIMIT = 1024 * 1024;
  const message = (text: string | undefined, html: string | undefined): ParsedMessage => ({
    ...PARSED,
    // Metadata only (no content, so no stored copy and no random link): the 1 MiB rule drops it first.
    attachments: [{ filename: 'big.bin', contentType: 'application/octet-stream', size: 9 }],
    ...(text === undefined ? { text: undefined } : { text }),
    ...(html === undefined ? {} : { html }),
  });
  const cases: Array<[string, ParsedMessage]> = [
    ['ASCII text over the limit', message('a\n'.repeat(800_000), undefined)],
    ['two-byte text over the limit', message('é'.repeat(LIMIT + 5), undefined)],
    ['emoji text whose cut falls inside a pair', message(`x${'😀'.repeat(LIMIT)}`, undefined)],
    ['text and html both over the limit', message('t'.repeat(LIMIT * 2), `<p>${'h'.repeat(LIMIT * 2)}</p>`)],
    ['html only, over the limit', message(undefined, `<p>${'h'.repeat(LIMIT + 100)}</p>`)],
    ['text under the limit', message('short', '<p>short</p>')],
  ];

  it.each(cases)('gives every mailbox the same body as the whole parts would: %s', (_name, parsed) => {
    const kept = keptForPayloads(parsed);
    expect((kept.text ?? '').length).toBeLessThanOrEqual(LIMIT + 1);
    expect((kept.html ?? '').length).toBeLessThanOrEqual(LIMIT + 1);
    for (const mode of [{}, { format: 'slack' }, { format: 'custom', template: { body: '{{text}}' } }] as const)
      for (const maxBytes of [LIMIT, 300_000]) {
        const whole = planDelivery(parsed, CONTEXT, target(mode as Partial<MailboxMode>), maxBytes);
        const cut = planDelivery(kept, CONTEXT, target(mode as Partial<MailboxMode>), maxBytes);
        expect(cut.bodyJson).toBe(whole.bodyJson);
      }
  });
});
