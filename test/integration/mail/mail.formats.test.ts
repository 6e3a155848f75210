import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { formatEmail } from '../../../src/formats/index.js';
import type { InboundEmailPayload } from '../../../src/formats/index.js';
import { createMailbox, sendMail, useMailHarness } from './mail-fixtures.js';
import type { MailHarness } from './mail-fixtures.js';

const MESSAGE = {
  subject: 'Disk <full> & co',
  text: 'The disk on db-1 is 98% full.\nPlease look.',
  attachments: [{ filename: 'df.txt', content: '98%' }],
};
const TEMPLATE = {
  event: 'mail',
  title: '{{subject}}',
  sender: { address: '{{from.email}}', name: '{{from.name|"anonymous"}}' },
  body: '{{text|html}}',
  firstFile: '{{attachments[0].filename}}',
  files: '{{attachments}}',
  id: '{{externalMessageId}}',
};

/**
 * One message to two mailboxes in one transaction: one without format (the raw payload) and one
 * with `format`. The formatted body must be the format adapter applied to that payload.
 */
async function formattedAndRaw(h: MailHarness, config: Record<string, unknown>) {
  const raw = await createMailbox(h, {}, 100, '/raw');
  const formatted = await createMailbox(h, config, 100, '/formatted');
  const before = h.receiver.requests.length;
  const info = await sendMail(h, { to: [raw.email, formatted.email], ...MESSAGE });
  expect(info.response).toMatch(/^250 /);
  const requests = (await h.receiver.waitForRequests(before + 2)).slice(before);
  await h.smtp.idle();
  const byPath = Object.fromEntries(requests.map((request) => [request.path, JSON.parse(request.text) as unknown]));
  const payload = byPath['/raw'] as InboundEmailPayload;
  // The formatted webhook's own payload differs only in its address, URL and stored attachment links.
  return { payload, body: byPath['/formatted'] as Record<string, any>, formatted };
}

describeEachStore('inbound mail: every format adapter, end to end over SMTP', (kind) => {
  const get = useMailHarness(kind);

  it('slack: {"text"} with the bold subject, the sender line and the body', async () => {
    const { payload, body } = await formattedAndRaw(get(), { format: 'slack' });
    expect(body).toStrictEqual(formatEmail('slack', payload));
    expect(body.text).toMatch(
      /^\*Disk &lt;full&gt; &amp; co\*\nFrom: Alice Sender &lt;alice@sender\.test&gt;\nThe disk on db-1 is 98% full\.\nPlease look\.$/,
    );
  });

  it('discord: {"content"} at most 2000 characters', async () => {
    const { payload, body } = await formattedAndRaw(get(), { format: 'discord' });
    expect(body).toStrictEqual(formatEmail('discord', payload));
    expect(body.content).toContain('**Disk <full> & co**\nFrom: Alice Sender <alice@sender.test>\nThe disk on db-1');
  });

  it('teams: a message with an Adaptive Card', async () => {
    const { payload, body } = await formattedAndRaw(get(), { format: 'teams' });
    expect(body).toStrictEqual(formatEmail('teams', payload));
    expect(body).toMatchObject({
      type: 'message',
      attachments: [
        { contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard', version: '1.4' } },
      ],
    });
  });

  it('telegram: chat_id from the options, HTML parse mode, escaped', async () => {
    const { payload, body } = await formattedAndRaw(get(), { format: 'telegram', options: { chat_id: '-100123' } });
    expect(body).toStrictEqual(formatEmail('telegram', payload, { options: { chat_id: '-100123' } }));
    expect(body).toMatchObject({ chat_id: '-100123', parse_mode: 'HTML' });
    expect(body.text).toMatch(/^<b>Disk &lt;full&gt; &amp; co<\/b>\n/);
  });

  it('pagerduty: a trigger event keyed by the message id', async () => {
    const { payload, body } = await formattedAndRaw(get(), {
      format: 'pagerduty',
      options: { routing_key: 'R0UTINGKEY' },
    });
    expect(body).toStrictEqual(formatEmail('pagerduty', payload, { options: { routing_key: 'R0UTINGKEY' } }));
    expect(body).toMatchObject({
      routing_key: 'R0UTINGKEY',
      event_action: 'trigger',
      dedup_key: payload.externalMessageId,
      payload: {
        summary: 'Disk <full> & co',
        source: 'alice@sender.test',
        severity: 'info',
        timestamp: payload.receivedAt,
        custom_details: { from_name: 'Alice Sender' },
      },
    });
  });

  it('custom: the template filled from the payload, attachments included', async () => {
    const h = get();
    const { payload, body } = await formattedAndRaw(h, { format: 'custom', template: TEMPLATE });
    expect(body).toMatchObject({
      event: 'mail',
      title: 'Disk <full> & co',
      sender: { address: 'alice@sender.test', name: 'Alice Sender' },
      body: payload.text,
      firstFile: 'df.txt',
      id: payload.externalMessageId,
    });
    // A whole-placeholder string takes the value's JSON type: the attachment array, with its own signed link.
    expect(body.files).toStrictEqual([
      {
        filename: 'df.txt',
        contentType: 'text/plain',
        size: 3,
        downloadUrl: expect.stringContaining('/mail/attachments/'),
        downloadUrlExpiresAt: expect.any(String),
      },
    ]);
    const link = new URL(String(body.files[0].downloadUrl));
    expect((await h.t.inject({ method: 'GET', url: `${link.pathname}${link.search}` })).body).toBe('98%');
  });

  it('custom: a message over 1 MiB keeps the attachments a small template renders, untruncated; the raw payload loses them', async () => {
    const h = get();
    const template = { files: '{{attachments}}', first: '{{attachments[0].filename}}', truncated: '{{truncated}}' };
    const raw = await createMailbox(h, {}, 100, '/raw-big');
    const formatted = await createMailbox(h, { format: 'custom', template }, 100, '/formatted-big');
    const before = h.receiver.requests.length;
    const big = { ...MESSAGE, html: `<p>${'x'.repeat(1_100_000)}</p>` };
    expect((await sendMail(h, { to: [raw.email, formatted.email], ...big })).response).toMatch(/^250 /);
    const requests = (await h.receiver.waitForRequests(before + 2)).slice(before);
    await h.smtp.idle();
    const byPath = Object.fromEntries(requests.map((request) => [request.path, JSON.parse(request.text) as unknown]));
    const body = byPath['/formatted-big'] as Record<string, any>;
    expect(body).toMatchObject({ first: 'df.txt', truncated: '' });
    expect(body.files).toHaveLength(1);
    const link = new URL(String(body.files[0].downloadUrl));
    expect((await h.t.inject({ method: 'GET', url: `${link.pathname}${link.search}` })).body).toBe('98%');
    expect(byPath['/raw-big']).toMatchObject({ attachments: [], truncated: true });
  });
});
