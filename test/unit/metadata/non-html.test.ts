import { describe, expect, it } from 'vitest';
import { imageSize } from '../../../src/features/metadata/image-size.js';
import { analyzeNonHtml } from '../../../src/features/metadata/non-html.js';
import { PNG_3x2 } from '../../fixtures/metadata-pages.js';

function gif(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(13);
  bytes.write('GIF89a', 0, 'latin1');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

/** SOI, an APP0 segment, then SOF0 with the size. */
function jpeg(width: number, height: number): Buffer {
  return Buffer.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x04,
    0x00,
    0x00,
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    0,
    0,
    0,
    0,
  ]);
}

function webpVp8x(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(30);
  bytes.write('RIFF', 0, 'latin1');
  bytes.write('WEBPVP8X', 8, 'latin1');
  bytes.writeUIntLE(width - 1, 24, 3);
  bytes.writeUIntLE(height - 1, 27, 3);
  return bytes;
}

describe('image size from the first bytes', () => {
  it.each([
    ['PNG', PNG_3x2, { format: 'png', width: 3, height: 2 }],
    ['GIF', gif(640, 480), { format: 'gif', width: 640, height: 480 }],
    ['JPEG', jpeg(1920, 1080), { format: 'jpeg', width: 1920, height: 1080 }],
    ['WebP', webpVp8x(4000, 3000), { format: 'webp', width: 4000, height: 3000 }],
  ])('reads %s', (_name, bytes, size) => {
    expect(imageSize(bytes)).toEqual(size);
  });

  it('says nothing about truncated or unknown bytes', () => {
    expect(imageSize(PNG_3x2.subarray(0, 10))).toBeUndefined();
    expect(imageSize(jpeg(10, 10).subarray(0, 12))).toBeUndefined();
    expect(imageSize(Buffer.from('hello world'))).toBeUndefined();
  });
});

describe('documents that are not HTML', () => {
  const input = (
    mimeType: string,
    body: Buffer | string,
    headers: Record<string, string> = {},
    url = 'https://a.test/files/thing',
  ) => ({
    body: Buffer.from(body),
    truncated: false,
    url: new URL(url),
    mimeType,
    headers,
  });

  it('takes the filename from content-disposition (RFC 5987 form first), else the path', () => {
    expect(
      analyzeNonHtml(
        input('application/zip', 'x', {
          'content-disposition': 'attachment; filename="a.zip"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.zip',
        }),
      ).document.filename,
    ).toBe('résumé.zip');
    expect(
      analyzeNonHtml(input('application/zip', 'x', {}, 'https://a.test/d/archive%201.zip')).document,
    ).toMatchObject({
      kind: 'archive',
      filename: 'archive 1.zip',
    });
  });

  it('reports the declared size, else the bytes received, else null when cut', () => {
    expect(analyzeNonHtml(input('video/mp4', 'abc', { 'content-length': '123456' })).document.size).toBe(123_456);
    expect(analyzeNonHtml(input('video/mp4', 'abc')).document.size).toBe(3);
    expect(analyzeNonHtml({ ...input('video/mp4', 'abc'), truncated: true }).document.size).toBeNull();
  });

  it('reads the title and description of a feed', () => {
    const feed =
      '<?xml version="1.0"?><rss><channel><title>Acme news</title><description>Launch updates</description><item><title>First</title></item></channel></rss>';
    const result = analyzeNonHtml(input('application/rss+xml', feed));
    expect([result.document.kind, result.title, result.description]).toEqual(['xml', 'Acme news', 'Launch updates']);
    expect(result.text).toContain('Launch updates');
  });

  it('decodes text with its charset', () => {
    const result = analyzeNonHtml({
      ...input('text/plain', Buffer.from('caf\xe9 au lait', 'latin1')),
      charset: 'iso-8859-1',
    });
    expect(result.text).toBe('café au lait');
    expect(result.document.wordCount).toBe(3);
  });
});
