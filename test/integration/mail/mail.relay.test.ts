import SwaggerParser from '@apidevtools/swagger-parser';
import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { MAIL_DOMAIN, balanceOf, createMailbox, outboxCount, useMailHarness } from './mail-fixtures.js';
import type { MailHarness } from './mail-fixtures.js';

const SECRET = 'relay-secret-0123456789';
const MESSAGE = [
  'From: Bob Relay <bob@relay.test>',
  'Subject: =?UTF-8?Q?Relayed_=E2=9C=93?=',
  'Message-ID: <relayed-1@relay.test>',
  'Content-Type: multipart/mixed; boundary="b"',
  '',
  '--b',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Through the relay.',
  '--b',
  'Content-Type: application/octet-stream',
  'Content-Disposition: attachment; filename="blob.bin"',
  'Content-Transfer-Encoding: base64',
  '',
  'AAECAw==',
  '--b--',
  '',
].join('\r\n');

function post(
  h: MailHarness,
  query: string,
  options: { secret?: string | null; body?: string | Buffer; headers?: Record<string, string> } = {},
) {
  const secret = options.secret === undefined ? SECRET : options.secret;
  return h.t.inject({
    method: 'POST',
    url: `/inbound/raw${query}`,
    headers: {
      'content-type': 'message/rfc822',
      ...(secret === null ? {} : { 'x-inbound-secret': secret }),
      ...options.headers,
    },
    payload: options.body ?? MESSAGE,
  });
}

const plain = (status: number, body: string) => ({ status, body, type: 'text/plain; charset=utf-8' });
const answer = (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => ({
  status: res.statusCode,
  body: res.body,
  type: res.headers['content-type'],
});

describeEachStore('POST /inbound/raw: relay ingestion with INBOUND_SECRET', (kind) => {
  const get = useMailHarness(kind, { env: { INBOUND_SECRET: SECRET } });

  it('routes a raw message like SMTP mail, with the relay named as provider; 202 once recorded', async () => {
    const h = get();
    const box = await createMailbox(h);
    const before = h.receiver.requests.length;
    const res = await post(h, `?recipient=${encodeURIComponent(box.email)}&provider=mailgun`);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toStrictEqual({ accepted: true, externalMessageId: 'relayed-1@relay.test' });
    const [request] = (await h.receiver.waitForRequests(before + 1)).slice(before);
    const body = JSON.parse(String(request?.text)) as Record<string, any>;
    expect(body).toMatchObject({
      externalMessageId: 'relayed-1@relay.test',
      from: { email: 'bob@relay.test', name: 'Bob Relay' },
      to: [{ email: box.email }],
      subject: 'Relayed ✓',
      provider: 'mailgun',
      attachments: [{ filename: 'blob.bin', contentType: 'application/octet-stream', size: 4 }],
      raw: { envelope: { from: '', to: [box.email] } },
    });
    expect(body.text.trim()).toBe('Through the relay.');
    expect(await balanceOf(h, box.token)).toBe(995);
  });

  it('takes the provider from x-inbound-provider, defaulting to "relay"', async () => {
    const h = get();
    const box = await createMailbox(h);
    const before = h.receiver.requests.length;
    expect(
      (await post(h, `?recipient=${box.email}`, { headers: { 'x-inbound-provider': 'postfix' } })).statusCode,
    ).toBe(202);
    // Another message: the same Message-ID again would be a repeat, accepted but not delivered twice.
    expect(
      (await post(h, `?recipient=${box.email}`, { body: MESSAGE.replace('relayed-1@', 'relayed-2@') })).statusCode,
    ).toBe(202);
    const requests = (await h.receiver.waitForRequests(before + 2)).slice(before);
    expect(requests.map((r) => (JSON.parse(r.text) as { provider: string }).provider).sort()).toStrictEqual([
      'postfix',
      'relay',
    ]);
    await h.smtp.idle();
  });

  it('answers 403 Forbidden without the secret or with a wrong one, before reading the body', async () => {
    const h = get();
    const box = await createMailbox(h);
    expect(answer(await post(h, `?recipient=${box.email}`, { secret: null }))).toStrictEqual(plain(403, 'Forbidden'));
    expect(answer(await post(h, `?recipient=${box.email}`, { secret: `${SECRET}x` }))).toStrictEqual(
      plain(403, 'Forbidden'),
    );
    expect(await balanceOf(h, box.token)).toBe(1000);
  });

  it('throttles wrong secrets per client: after 10 in a minute even the right one is answered 429, other clients are not held', async () => {
    const h = get();
    const box = await createMailbox(h);
    const from = (remoteAddress: string, secret: string) =>
      h.t.inject({
        method: 'POST',
        url: `/inbound/raw?recipient=${box.email}`,
        headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': secret },
        payload: MESSAGE.replace('relayed-1@', `throttled-${remoteAddress}@`),
        remoteAddress,
      });
    for (let i = 0; i < 10; i++)
      expect(answer(await from('198.51.100.60', `${SECRET}${i}`))).toStrictEqual(plain(403, 'Forbidden'));
    const refused = await from('198.51.100.60', SECRET);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await from('198.51.100.61', SECRET)).statusCode).toBe(202);
    await h.smtp.idle();
  });

  it('refuses bad requests with the usual plain-text errors, charging nothing', async () => {
    const h = get();
    const box = await createMailbox(h, {}, 4);
    expect(answer(await post(h, ''))).toStrictEqual(plain(400, 'Missing required field: recipient'));
    expect(answer(await post(h, '?recipient=someone@elsewhere.test'))).toStrictEqual(
      plain(400, `Invalid recipient: must be a mailbox address r_…@${MAIL_DOMAIN}`),
    );
    expect(answer(await post(h, `?recipient=r_cccccccccccccccc@${MAIL_DOMAIN}`))).toStrictEqual(
      plain(404, 'Webhook not found'),
    );
    expect(answer(await post(h, `?recipient=${box.email}&provider=bad%20name`))).toStrictEqual(
      plain(400, 'Invalid provider: must be 1 to 40 letters, digits, ".", "_" or "-"'),
    );
    expect(answer(await post(h, `?recipient=${box.email}`, { body: '' }))).toStrictEqual(
      plain(400, 'Invalid body: must be a raw RFC 5322 message'),
    );
    // 5 credits for a message with an attachment; the wallet has 4.
    expect(answer(await post(h, `?recipient=${box.email}`))).toStrictEqual(plain(402, 'Insufficient credits'));
    expect(await balanceOf(h, box.token)).toBe(4);
    expect(await outboxCount(h)).toBe(0);
  });

  it('is documented in /openapi.json with the download route, and the document stays valid', async () => {
    const doc = (await get().t.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/inbound/raw'] ?? {})).toStrictEqual(['post']);
    expect(Object.keys(doc.paths['/mail/attachments/{attachmentId}'] ?? {})).toContain('get');
    await expect(
      SwaggerParser.validate(structuredClone(doc) as unknown as Parameters<typeof SwaggerParser.validate>[0]),
    ).resolves.toBeTruthy();
  });

  it('answers 413 to a message over 30 MiB', async () => {
    const h = get();
    const box = await createMailbox(h);
    const huge = Buffer.alloc(30 * 1024 * 1024 + 10, 0x61);
    expect(answer(await post(h, `?recipient=${box.email}`, { body: huge }))).toStrictEqual(
      plain(413, 'Payload Too Large'),
    );
    expect(await balanceOf(h, box.token)).toBe(1000);
  });
});

describeEachStore('POST /inbound/raw without INBOUND_SECRET', (kind) => {
  const get = useTestApp(kind);

  it('does not exist', async () => {
    const res = await get().inject({
      method: 'POST',
      url: '/inbound/raw?recipient=x',
      headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': '' },
      payload: MESSAGE,
    });
    expect(answer(res)).toStrictEqual(plain(404, 'Not Found'));
  });
});
