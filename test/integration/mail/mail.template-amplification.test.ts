import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { balanceOf, createMailbox, outboxCount, sendMail, useMailHarness } from './mail-fixtures.js';

const MIB = 1024 * 1024;

/** A 2 KB template that writes the mail text hundreds of times: unbounded, one 1 MB mail renders to hundreds of MB per mailbox. */
function amplifyingTemplate(): Record<string, unknown> {
  const template: Record<string, unknown> = { whole: '{{text}}', flag: '{{truncated}}' };
  for (let i = 0; JSON.stringify(template).length < 1900; i += 1) template[`t${i}`] = '{{text}}';
  return template;
}

describeEachStore('inbound mail: a custom template cannot amplify a message beyond 1 MiB per mailbox', (kind) => {
  const get = useMailHarness(kind);

  it('a ~1 MB mail to three mailboxes whose template repeats {{text}}: each body is cut to at most 1 MiB, charged, delivered, and the heap stays bounded', async () => {
    const h = get();
    const template = amplifyingTemplate();
    const repeats = Object.keys(template).length - 1;
    expect(repeats).toBeGreaterThan(100);
    const boxes = await Promise.all(
      [0, 1, 2].map((i) => createMailbox(h, { format: 'custom', template }, 100, `/amp${i}`)),
    );
    const text = `start ${'lorem ipsum dolor sit amet '.repeat(37_000)} end`; // ~1 MB
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => {
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }, 5);
    const before = h.receiver.requests.length;
    try {
      const info = await sendMail(h, { to: boxes.map((box) => box.email), subject: 'big', text });
      expect(info.response).toMatch(/^250 /);
      await h.receiver.waitForRequests(before + boxes.length);
      await h.smtp.idle();
    } finally {
      clearInterval(sampler);
    }
    const requests = h.receiver.requests.slice(before);
    expect(requests).toHaveLength(boxes.length);
    for (const request of requests) {
      expect(Buffer.byteLength(request.text, 'utf8')).toBeLessThanOrEqual(MIB);
      const body = JSON.parse(request.text) as Record<string, unknown>;
      // Cut, not refused: every placeholder keeps an equal share, starts as the mail does, ends in "…", and `{{truncated}}` says so.
      expect(body.flag).toBe(true);
      for (let i = 0; i < repeats - 1; i += 1) {
        const value = body[`t${i}`] as string;
        expect(value.startsWith('start lorem ipsum')).toBe(true);
        expect(value.endsWith('…')).toBe(true);
      }
      expect(String(body.whole)).toBe(String(body.t0));
    }
    // Hundreds of MB per mailbox unbounded; bounded, a few MB for the three bodies and the message.
    expect(heapPeak - heapBefore).toBeLessThan(200 * MIB);
    for (const box of boxes) expect(await balanceOf(h, box.token)).toBe(100 - 2);
    expect(await outboxCount(h)).toBe(0);
    // The service still answers.
    expect((await h.t.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('a message no wallet can pay is refused before any body is built (452), nothing charged', async () => {
    const h = get();
    const poor = await createMailbox(h, { format: 'custom', template: amplifyingTemplate() }, 2, '/poor');
    const rich = await createMailbox(h, {}, 100, '/rich');
    // Spend the poor wallet's credits after RCPT could accept it: a mail with an attachment costs 5.
    const before = h.receiver.requests.length;
    await expect(
      sendMail(h, {
        to: [rich.email, poor.email],
        subject: 'x',
        text: 'y',
        attachments: [{ filename: 'a.txt', content: 'a' }],
      }),
    ).rejects.toThrow(/452/);
    expect(h.receiver.requests.length).toBe(before);
    expect(await balanceOf(h, rich.token)).toBe(100);
    expect(await balanceOf(h, poor.token)).toBe(2);
  });
});
