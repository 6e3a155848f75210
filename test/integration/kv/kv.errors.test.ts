import { beforeAll, expect, it } from 'vitest';
import type { HTTPMethods } from 'fastify';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';

const PLAIN = 'text/plain; charset=utf-8';
const TTL_RULE = 'Invalid ttl: must be an integer from 0 to 2592000';
const LENGTH = (field: string) => `Invalid ${field}: must be 1 to 30 characters`;
const CHARSET = (field: string) => `Invalid ${field}: must not contain control characters or /`;
const METHODS: readonly HTTPMethods[] = ['POST', 'GET', 'DELETE'];

describeEachStore('key-value store: refused requests', (kind) => {
  const get = useTestApp(kind);
  let token: string;
  beforeAll(async () => {
    token = await get().createToken(100_000);
  });
  const call = (method: HTTPMethods, url: string, payload?: string | Buffer) =>
    get().inject({
      method,
      url,
      headers: { 'x-token': token, 'content-type': 'text/plain' },
      ...(payload === undefined ? {} : { payload }),
    });

  async function expectBadRequest(method: HTTPMethods, url: string, body: string, payload?: string) {
    const res = await call(method, url, method === 'POST' ? (payload ?? 'v') : undefined);
    expect(res.statusCode, `${method} ${url}`).toBe(400);
    expect(res.headers['content-type']).toBe(PLAIN);
    expect(res.body, `${method} ${url}`).toBe(body);
    expect(res.headers['x-cost']).toBe('1');
  }

  const badNames: Array<[string, string, string]> = [
    ['a 31-character bucket', `${'b'.repeat(31)}/k`, LENGTH('bucket')],
    ['a 31-character key', `b/${'k'.repeat(31)}`, LENGTH('key')],
    ['a bucket of 31 unicode code points', `${encodeURIComponent('é'.repeat(31))}/k`, LENGTH('bucket')],
    ['a key of 31 emoji', `b/${encodeURIComponent('😀'.repeat(31))}`, LENGTH('key')],
    ['an empty bucket (//)', '/k', LENGTH('bucket')],
    ['an empty key (trailing /)', 'b/', LENGTH('key')],
    ['a NUL in the bucket (%00)', 'a%00b/k', CHARSET('bucket')],
    ['a newline in the key (%0A)', 'b/a%0Ab', CHARSET('key')],
    ['a unit separator in the key (%1F)', 'b/a%1Fb', CHARSET('key')],
    ['a DEL in the bucket (%7F)', 'a%7Fb/k', CHARSET('bucket')],
    ['a / in the bucket (%2F)', 'a%2Fb/k', CHARSET('bucket')],
    ['a / in the key (%2F)', 'b/a%2fb', CHARSET('key')],
    ['a bucket starting with reserved-', 'reserved-things/k', 'Invalid bucket: must not start with reserved-'],
    ['the bucket reserved- itself', 'reserved-/k', 'Invalid bucket: must not start with reserved-'],
    ['a bucket ending with ---', 'things---/k', 'Invalid bucket: must not end with ---'],
    ['the bucket ---', '---/k', 'Invalid bucket: must not end with ---'],
  ];

  for (const method of METHODS) {
    it.each(badNames)(`${method} answers 400 to %s, and charges 1`, async (_name, path, body) => {
      await expectBadRequest(method, `/kv/${path}`, body);
    });
  }

  it('checks the bucket before the key', async () => {
    await expectBadRequest('POST', `/kv/reserved-x/${'k'.repeat(31)}`, 'Invalid bucket: must not start with reserved-');
  });

  it.each([
    ['empty', 'ttl='],
    ['fractional', 'ttl=1.5'],
    ['negative', 'ttl=-1'],
    ['one above the maximum', 'ttl=2592001'],
    ['far above the maximum', 'ttl=123456789'],
    ['not a number', 'ttl=abc'],
    ['in exponent form', 'ttl=1e3'],
    ['in hex', 'ttl=0x10'],
    ['with a leading space', 'ttl=%205'],
    ['given twice', 'ttl=5&ttl=6'],
  ])('answers 400 to a ttl that is %s', async (_name, query) => {
    await expectBadRequest('POST', `/kv/ttl/k?${query}`, TTL_RULE);
  });

  it('answers 400 to a value of 1001 characters and keeps the earlier value', async () => {
    expect((await call('POST', '/kv/long/k', 'kept')).statusCode).toBe(200);
    await expectBadRequest('POST', '/kv/long/k', 'Invalid value: must be at most 1000 characters', 'a'.repeat(1001));
    await expectBadRequest('POST', '/kv/long/k', 'Invalid value: must be at most 1000 characters', '😀'.repeat(1001));
    expect((await call('GET', '/kv/long/k')).body).toBe('kept');
  });

  it('reads a 16 KiB body and refuses it as too long, but refuses a body over 16 KiB unread with 413', async () => {
    await expectBadRequest(
      'POST',
      '/kv/big/k',
      'Invalid value: must be at most 1000 characters',
      'a'.repeat(16 * 1024),
    );
    const res = await call('POST', '/kv/big/k', 'a'.repeat(16 * 1024 + 1));
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toBe(PLAIN);
    expect(res.body).toBe('Payload Too Large');
    expect(res.headers['x-cost']).toBe('1');
    expect((await call('GET', '/kv/big/k')).statusCode).toBe(404);
  });

  it('answers 404 Key Not Found to GET and DELETE of a key never set', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await call(method, '/kv/never/set');
      expect([res.statusCode, res.body, res.headers['content-type'], res.headers['x-cost']]).toEqual([
        404,
        'Key Not Found',
        PLAIN,
        '1',
      ]);
    }
  });

  it('answers 404 to a second DELETE of the same key', async () => {
    expect((await call('POST', '/kv/twice/k', 'v')).statusCode).toBe(200);
    expect((await call('DELETE', '/kv/twice/k')).statusCode).toBe(200);
    const again = await call('DELETE', '/kv/twice/k');
    expect([again.statusCode, again.body]).toEqual([404, 'Key Not Found']);
  });

  it('answers 400 in plain text to a malformed percent-encoding in a name', async () => {
    const res = await call('GET', '/kv/%E0%A4%A/k');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe(PLAIN);
    expect(res.body).toMatch(/^Invalid \S/);
  });
});
