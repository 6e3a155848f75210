import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { RawSmtp, createMailbox, deliveredMail, useMailHarness } from './mail-fixtures.js';

const CORPUS = fileURLToPath(new URL('../../fixtures/mail/', import.meta.url));
const files = readdirSync(CORPUS)
  .filter((name) => name.endsWith('.eml'))
  .sort();

/** What every delivered payload must look like, however broken the message was. */
function expectPayloadShape(body: Record<string, any>): void {
  expect(typeof body.externalMessageId).toBe('string');
  expect(body.externalMessageId.length).toBeGreaterThan(0);
  expect(typeof body.receivedAt).toBe('string');
  expect(typeof body.from?.email).toBe('string');
  expect(Array.isArray(body.to)).toBe(true);
  expect(Array.isArray(body.cc)).toBe(true);
  expect(typeof body.subject).toBe('string');
  expect(typeof body.text).toBe('string');
  if ('html' in body) expect(typeof body.html).toBe('string');
  expect(typeof body.headers).toBe('object');
  expect(Array.isArray(body.attachments)).toBe(true);
  expect(body.provider).toBe('smtp');
}

describeEachStore('inbound mail: a corpus of malformed MIME never crashes the listener', (kind) => {
  const get = useMailHarness(kind);

  it(`has at least 20 messages (${files.length})`, () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it('answers every message with 250 (delivered) or 554 (unparsable), in one session, and keeps serving', async () => {
    const h = get();
    const box = await createMailbox(h, {}, 10_000);
    const { client } = await RawSmtp.open(h.smtp.port);
    await client.command('EHLO corpus.test');
    const replies: Record<string, string> = {};
    for (const file of files) {
      const before = h.receiver.requests.length;
      const { data } = await client.transaction('corpus@sender.test', [box.email], readFileSync(join(CORPUS, file)));
      replies[file] = data.slice(0, 3);
      if (data.startsWith('250')) {
        const [request] = (await h.receiver.waitForRequests(before + 1)).slice(before);
        expectPayloadShape(JSON.parse(String(request?.text)) as Record<string, any>);
      }
    }
    await client.close();
    await h.smtp.idle();
    expect(Object.entries(replies).filter(([, code]) => code !== '250' && code !== '554')).toStrictEqual([]);
    // mailparser refuses more than 1000 parts: the one message it cannot parse is refused for good.
    expect(replies['27-too-many-parts.eml']).toBe('554');
    expect(Object.values(replies).filter((code) => code === '250').length).toBeGreaterThanOrEqual(files.length - 1);

    const { body } = await deliveredMail(h, { to: box.email, subject: 'still alive', text: 'ok' });
    expect(body.subject).toBe('still alive');
  });

  it('decodes what can be decoded in the broken messages', async () => {
    const h = get();
    const box = await createMailbox(h, {}, 10_000);
    const deliver = async (file: string) => {
      const before = h.receiver.requests.length;
      const { client } = await RawSmtp.open(h.smtp.port);
      await client.command('EHLO corpus.test');
      const { data } = await client.transaction('corpus@sender.test', [box.email], readFileSync(join(CORPUS, file)));
      await client.close();
      expect(data).toMatch(/^250 /);
      const [request] = (await h.receiver.waitForRequests(before + 1)).slice(before);
      return JSON.parse(String(request?.text)) as Record<string, any>;
    };
    expect((await deliver('05-deeply-nested.eml')).text).toContain('at the bottom');
    expect((await deliver('16-bare-lf.eml')).text).toContain('unix lines');
    const dots = await deliver('28-dot-lines.eml');
    expect(dots.text.replace(/\r\n/g, '\n')).toBe('.\n..\n.hidden\nend\n');
    const duplicated = await deliver('14-duplicate-headers.eml');
    expect(duplicated.headers.subject).toStrictEqual(['first', 'second']);
    expect(duplicated.subject).toBe('first');
    const empty = await deliver('30-empty-message.eml');
    expect(empty).toMatchObject({
      subject: '',
      text: '',
      from: { email: 'corpus@sender.test' },
      to: [{ email: box.email }],
    });
    await h.smtp.idle();
  });
});
