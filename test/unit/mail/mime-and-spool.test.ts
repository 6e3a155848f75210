import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessage } from '../../../src/features/mail/mime-parse.js';
import { readSpoolSource, Spool, SpoolFolder, SpoolOverflow } from '../../../src/features/mail/spool.js';

const ATTACHED = [
  'From: a@x.test',
  'To: b@y.test, Group: c@y.test, d@y.test;',
  'Subject: files',
  'Content-Type: multipart/mixed; boundary="b"',
  '',
  '--b',
  'Content-Type: text/plain',
  '',
  'hello',
  '--b',
  'Content-Type: application/octet-stream',
  'Content-Disposition: attachment; filename="small.bin"',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.alloc(10, 1).toString('base64'),
  '--b',
  'Content-Type: application/octet-stream',
  'Content-Disposition: attachment; filename="big.bin"',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.alloc(3000, 2).toString('base64').replace(/.{76}/g, '$&\r\n'),
  '--b--',
  '',
].join('\r\n');

const parse = (raw: string | Buffer, keepAttachments = true, maxAttachmentBytes = 100) =>
  parseMessage(Readable.from([Buffer.from(raw)]), { keepAttachments, maxAttachmentBytes });

describe('parseMessage', () => {
  it('keeps attachment bytes up to the limit and only counts larger ones', async () => {
    const parsed = await parse(ATTACHED);
    expect(parsed.text?.trim()).toBe('hello');
    expect(parsed.to).toStrictEqual([{ email: 'b@y.test' }, { email: 'c@y.test' }, { email: 'd@y.test' }]);
    expect(parsed.attachments).toStrictEqual([
      { filename: 'small.bin', contentType: 'application/octet-stream', size: 10, content: Buffer.alloc(10, 1) },
      { filename: 'big.bin', contentType: 'application/octet-stream', size: 3000 },
    ]);
  });

  it('keeps no attachment bytes when nobody wants them', async () => {
    const parsed = await parse(ATTACHED, false);
    expect(parsed.attachments.map((a) => [a.size, a.content])).toStrictEqual([
      [10, undefined],
      [3000, undefined],
    ]);
  });

  it('unfolds header values without decoding them', async () => {
    const parsed = await parse('Subject: =?UTF-8?Q?a?=\r\n  folded\r\nX-Two: 1\r\nX-Two: 2\r\n\r\nbody');
    expect(parsed.headers).toStrictEqual([
      ['subject', '=?UTF-8?Q?a?=  folded'],
      ['x-two', '1'],
      ['x-two', '2'],
    ]);
  });
});

describe('Spool', () => {
  let folder: SpoolFolder;
  beforeAll(async () => {
    folder = await SpoolFolder.create();
  });
  afterAll(async () => folder.remove());

  const read = async (spool: Spool) => Buffer.concat(await readSpoolSource(spool.source()).toArray());

  it('keeps a small message in memory', async () => {
    const spool = new Spool(folder, 1000, 100);
    await spool.write(Buffer.from('hello'));
    expect((await read(spool)).toString()).toBe('hello');
    await spool.dispose();
  });

  it('moves a larger one to a private temp file, deleted on dispose', async () => {
    const spool = new Spool(folder, 10_000, 100);
    for (let i = 0; i < 50; i++) await spool.write(Buffer.alloc(50, 97 + (i % 26)));
    const path = (spool as unknown as { file?: { path: string } }).file?.path;
    expect(path).toBeDefined();
    expect(existsSync(String(path))).toBe(true);
    expect(await read(spool)).toHaveLength(2500);
    await spool.dispose();
    expect(existsSync(String(path))).toBe(false);
  });

  it('counts but drops bytes past the limit, or fails at once when asked to', async () => {
    const drained = new Spool(folder, 100, 1000);
    await pipeline(Readable.from([Buffer.alloc(80), Buffer.alloc(80)]), drained.writable());
    expect([drained.received, drained.size, drained.oversized]).toStrictEqual([160, 100, true]);
    const strict = new Spool(folder, 100, 1000);
    await expect(
      pipeline(Readable.from([Buffer.alloc(80), Buffer.alloc(80)]), strict.writable({ failWhenOversized: true })),
    ).rejects.toBeInstanceOf(SpoolOverflow);
  });
});
