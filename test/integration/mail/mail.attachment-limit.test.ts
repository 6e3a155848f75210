import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ATTACHMENT_MAX_BYTES } from '../../../src/features/mail/mail-limits.js';
import { balanceOf, createMailbox, deliveredMail, useMailHarness } from './mail-fixtures.js';
import type { MailHarness } from './mail-fixtures.js';

const stored = (h: MailHarness) =>
  h.t.deps.store.read.all<{ filename: string | null; size: number }>(
    'SELECT filename, size FROM mail_attachments ORDER BY filename',
  );

describeEachStore('inbound mail: the 20 MB attachment rule over SMTP', (kind) => {
  const get = useMailHarness(kind);

  it('lists an attachment over 20 MB with its size but stores no bytes and gives no link; smaller ones are kept', async () => {
    const h = get();
    const box = await createMailbox(h);
    const before = await stored(h);
    // One byte over the limit, about 27 MB once base64-encoded: still under the SMTP SIZE limit.
    const big = Buffer.alloc(ATTACHMENT_MAX_BYTES + 1, 0x61);
    const { body } = await deliveredMail(h, {
      to: box.email,
      subject: 'one huge file',
      text: 'see attached',
      attachments: [
        { filename: 'big.bin', content: big, contentType: 'application/octet-stream' },
        { filename: 'small.txt', content: 'small', contentType: 'text/plain' },
      ],
    });

    expect(body.attachments).toStrictEqual([
      { filename: 'big.bin', contentType: 'application/octet-stream', size: ATTACHMENT_MAX_BYTES + 1 },
      {
        filename: 'small.txt',
        contentType: 'text/plain',
        size: 5,
        downloadUrl: expect.any(String),
        downloadUrlExpiresAt: expect.any(String),
      },
    ]);
    expect(body).not.toHaveProperty('truncated');
    // Only the small one's bytes were stored, and its link serves them.
    expect(await stored(h)).toStrictEqual([...before, { filename: 'small.txt', size: 5 }]);
    const link = new URL(String(body.attachments[1].downloadUrl));
    expect((await h.t.inject({ method: 'GET', url: `${link.pathname}${link.search}` })).body).toBe('small');
    // Still a message with attachments: 5 credits.
    expect(await balanceOf(h, box.token)).toBe(995);
  });
});
