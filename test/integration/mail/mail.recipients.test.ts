import { expect, it, vi } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { RawSmtp, balanceOf, createMailbox, useMailHarness } from './mail-fixtures.js';
import type { MailHarness } from './mail-fixtures.js';

const message = (to: readonly string[]) =>
  `From: a@sender.test\r\nTo: ${to.join(', ')}\r\nSubject: lookup\r\n\r\nbody\r\n`;

/** The statements that read `webhooks` through the store's read side while `action` runs. */
async function webhookReads(h: MailHarness, action: () => Promise<void>): Promise<string[]> {
  const { read } = h.t.deps.store;
  const spies = [vi.spyOn(read, 'get'), vi.spyOn(read, 'all')];
  try {
    await action();
    return spies
      .flatMap((spy) => spy.mock.calls.map(([sql]) => sql))
      .filter((sql) => /^\s*SELECT\b[\s\S]*\bFROM webhooks\b/.test(sql));
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

describeEachStore('inbound mail: recipient lookup', (kind) => {
  const get = useMailHarness(kind);

  it('looks each recipient up with one query at RCPT and all of them with one more at the end of DATA', async () => {
    const h = get();
    const boxes = await Promise.all([1, 2, 3].map((n) => createMailbox(h, {}, 100, `/lookup-${n}`)));
    const before = h.receiver.requests.length;
    const reads = await webhookReads(h, async () => {
      const { client } = await RawSmtp.open(h.smtp.port);
      await client.command('EHLO raw.test');
      const emails = boxes.map((box) => box.email);
      const { rcpt, data } = await client.transaction('a@sender.test', emails, message(emails));
      await client.close();
      expect(rcpt.every((reply) => reply.startsWith('250'))).toBe(true);
      expect(data).toMatch(/^250 /);
    });
    expect(reads).toHaveLength(boxes.length + 1);
    await h.receiver.waitForRequests(before + boxes.length);
    await h.smtp.idle();
    expect(await Promise.all(boxes.map((box) => balanceOf(h, box.token)))).toStrictEqual([98, 98, 98]);
  });

  it('skips a mailbox deleted between RCPT and DATA, charging and telling only the others', async () => {
    const h = get();
    const kept = await createMailbox(h, {}, 100, '/kept');
    const gone = await createMailbox(h, {}, 100, '/gone');
    const before = h.receiver.requests.length;
    const { client } = await RawSmtp.open(h.smtp.port);
    await client.command('EHLO raw.test');
    expect(await client.command('MAIL FROM:<a@sender.test>')).toMatch(/^250/);
    expect(await client.command(`RCPT TO:<${gone.email}>`)).toMatch(/^250/);
    expect(await client.command(`RCPT TO:<${kept.email}>`)).toMatch(/^250/);
    const removed = await h.t.inject({
      method: 'DELETE',
      url: `/webhook/${gone.webhookId}`,
      headers: { 'x-token': gone.token },
    });
    expect(removed.statusCode).toBe(200);
    expect(await client.data(message([gone.email, kept.email]))).toMatch(/^250 /);
    await client.close();

    const [request] = (await h.receiver.waitForRequests(before + 1)).slice(before);
    await h.smtp.idle();
    expect(h.receiver.requests.slice(before).map((r) => r.path)).toStrictEqual(['/kept']);
    expect(
      (JSON.parse(String(request?.text)) as { raw: { envelope: { to: string[] } } }).raw.envelope.to,
    ).toStrictEqual([kept.email]);
    expect(await balanceOf(h, kept.token)).toBe(98);
    expect(await balanceOf(h, gone.token)).toBe(99); // 101 less the create and delete calls: no mail charge
  });
});
