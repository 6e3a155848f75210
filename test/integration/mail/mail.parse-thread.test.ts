import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { createMailbox, useMailHarness } from './mail-fixtures.js';
import type { MailHarness } from './mail-fixtures.js';
import { PAYLOAD_MAX_BYTES } from '../../../src/features/mail/mail-limits.js';

const SECRET = 'relay-secret-0123456789';
/** Lines of a text part: mailparser decodes a part, and normalises its line breaks, in one step when it ends. */
const LINES = 3_000_000;

/** A message whose text part is LINES short lines (6 MB decoded), sent base64 as mail clients send large text. */
function largeTextMessage(id: string): string {
  const text = 'a\n'.repeat(LINES);
  const base64 = Buffer.from(text).toString('base64').replace(/.{76}/g, '$&\r\n');
  return [
    'From: Ann <ann@sender.test>',
    `Message-ID: <${id}@sender.test>`,
    'Subject: Large',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64,
    '',
  ].join('\r\n');
}

const relay = (h: MailHarness, recipient: string, message: string) =>
  h.t.inject({
    method: 'POST',
    url: `/inbound/raw?recipient=${encodeURIComponent(recipient)}`,
    headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': SECRET },
    payload: message,
  });

/**
 * Decoding a large text part is seconds of one synchronous step in mailparser (and the whole text then went through
 * every mailbox's plan): on the event loop it held every wallet's calls. Messages are parsed on a thread of their own
 * and come back with their text parts as far as a payload can use them.
 */
describeEachStore('inbound mail: a large text part is decoded off the event loop', (kind) => {
  const get = useMailHarness(kind, { env: { INBOUND_SECRET: SECRET } });

  it("a 6 MB text part is decoded without holding the event loop (under 250 ms at once, ~1 s on it); its payload is the text's start, cut by the 1 MiB rule", async () => {
    const h = get();
    const mailbox = await createMailbox(h, {}, 100, '/large');
    // Warm: the parse thread starts with the first message.
    const warm = [
      'From: Ann <ann@sender.test>',
      `Message-ID: <warm-${kind}@sender.test>`,
      'Subject: Warm',
      '',
      'Hi.',
      '',
    ];
    expect((await relay(h, mailbox.email, warm.join('\r\n'))).statusCode).toBe(202);
    await h.t.inbound?.idle();
    const message = largeTextMessage(`large-${kind}`);

    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const answer = await relay(h, mailbox.email, message);
    await h.t.inbound?.idle();
    delay.disable();

    expect(answer.statusCode, answer.body).toBe(202);
    // On the event loop, this message held it for over a second in one go.
    expect(delay.max / 1e6).toBeLessThan(250);
    const delivered = h.receiver.requests.filter((request) => request.path === '/large').at(-1);
    expect(delivered?.body.length).toBeLessThanOrEqual(PAYLOAD_MAX_BYTES);
    const payload = JSON.parse(delivered?.text ?? '{}') as { text: string; truncated?: boolean; subject: string };
    expect(payload.subject).toBe('Large');
    expect(payload.truncated).toBe(true);
    expect(payload.text.length).toBeGreaterThan(PAYLOAD_MAX_BYTES / 2);
    expect('a\n'.repeat(LINES).startsWith(payload.text)).toBe(true);
  }, 60_000);
});
