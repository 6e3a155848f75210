import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { RawSmtp, createMailbox, useMailHarness } from './mail-fixtures.js';
import type { MailHarness } from './mail-fixtures.js';

const BUDGET = 64 * 1024;
const NO_STORAGE = '452 4.2.2 Insufficient system storage, try again later';

/** A message of about `bytes` bytes (78-byte body lines). */
const message = (to: string, bytes: number) =>
  `From: a@sender.test\r\nTo: ${to}\r\nSubject: big\r\n\r\n${`${'x'.repeat(76)}\r\n`.repeat(Math.ceil(bytes / 78))}`;

/** Resolves once the listener holds at least `bytes` of spooled messages. */
async function spooled(h: MailHarness, bytes: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (h.smtp.spooledBytes() < bytes) {
    if (Date.now() > deadline) throw new Error(`only ${h.smtp.spooledBytes()} bytes spooled`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Everything the server sends until it closes the connection (closed: false if it has not within `waitMs`). */
function untilClosed(socket: Socket, waitMs = 5_000): Promise<{ text: string; closed: boolean }> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, waitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
  });
}

describeEachStore('inbound SMTP: connections per client address', (kind) => {
  const get = useMailHarness(kind);

  it('serves 10 connections from one address and refuses the 11th at connect with 421 4.7.0, until one closes', async () => {
    const sessions = await Promise.all(Array.from({ length: 10 }, () => RawSmtp.open(get().smtp.port)));
    for (const { greeting } of sessions) expect(greeting).toMatch(/^220 /);
    const eleventh = connect(get().smtp.port, '127.0.0.1');
    expect(await untilClosed(eleventh)).toEqual({
      text: '421 4.7.0 Too many connections from your address\r\n',
      closed: true,
    });
    await sessions[0]?.client.close();
    const again = await RawSmtp.open(get().smtp.port);
    expect(again.greeting).toMatch(/^220 /);
    await Promise.all([again, ...sessions.slice(1)].map(({ client }) => client.close()));
  });
});

describeEachStore('inbound SMTP: idle time limit', (kind) => {
  const get = useMailHarness(kind, { smtp: { idleTimeoutMs: 500 } });

  it('hangs up on a client that sends nothing for the idle timeout, with 421', async () => {
    const socket = connect(get().smtp.port, '127.0.0.1');
    const closed = untilClosed(socket, 3_000);
    await new Promise((resolve) => socket.once('data', resolve)); // the greeting
    socket.write('EHLO idle.test\r\n');
    const { text, closed: hungUp } = await closed;
    expect(hungUp).toBe(true);
    expect(text).toMatch(/^220 [^\r\n]*\r\n250-/);
    expect(text).toMatch(/\r\n421 [^\r\n]*Timeout - closing connection\r\n$/);
  });
});

describeEachStore('inbound SMTP: the spool budget shared by messages in flight', (kind) => {
  const get = useMailHarness(kind, { smtp: { spoolBudgetBytes: BUDGET } });

  it('refuses with 452 a message arriving while others hold the budget, and takes it again once they are done', async () => {
    const h = get();
    const box = await createMailbox(h);
    const slow = (await RawSmtp.open(h.smtp.port)).client;
    await slow.command('EHLO slow.test');
    expect(await slow.command('MAIL FROM:<a@sender.test>')).toMatch(/^250/);
    expect(await slow.command(`RCPT TO:<${box.email}>`)).toMatch(/^250/);
    expect(await slow.command('DATA')).toMatch(/^354/);
    const held = message(box.email, 48 * 1024);
    slow.write(held); // no final dot: the message stays unfinished
    await spooled(h, 48 * 1024);

    const second = (await RawSmtp.open(h.smtp.port)).client;
    await second.command('EHLO second.test');
    const refused = await second.transaction('a@sender.test', [box.email], message(box.email, 32 * 1024));
    expect(refused.data).toBe(NO_STORAGE);
    // A sender that declares a SIZE beyond what is left is refused before it sends anything.
    expect(await second.command(`MAIL FROM:<a@sender.test> SIZE=${32 * 1024}`)).toBe(NO_STORAGE);

    slow.write('.\r\n');
    expect(await slow.reply()).toMatch(/^250 /);
    await h.smtp.idle();
    expect(h.smtp.spooledBytes()).toBe(0);
    const retried = await second.transaction('a@sender.test', [box.email], message(box.email, 32 * 1024));
    expect(retried.data).toMatch(/^250 /);
    await Promise.all([slow.close(), second.close()]);
  });

  it('gives back the share of a client that hangs up in the middle of DATA', async () => {
    const h = get();
    const box = await createMailbox(h);
    const quitter = (await RawSmtp.open(h.smtp.port)).client;
    await quitter.command('EHLO quitter.test');
    await quitter.command('MAIL FROM:<a@sender.test>');
    await quitter.command(`RCPT TO:<${box.email}>`);
    expect(await quitter.command('DATA')).toMatch(/^354/);
    quitter.write(message(box.email, 48 * 1024));
    await spooled(h, 48 * 1024);
    quitter.destroy();
    const deadline = Date.now() + 5_000;
    while (h.smtp.spooledBytes() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(h.smtp.spooledBytes()).toBe(0);
  });
});
