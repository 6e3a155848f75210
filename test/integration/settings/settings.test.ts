import { beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';

const PLAIN = 'text/plain; charset=utf-8';
const THRESHOLD_RULE = 'Invalid low_balance_threshold: must be an integer from 0 to 1000000000000';
const EMAIL_RULE = 'Invalid low_balance_email: must be an e-mail address of at most 254 characters';
const HOOK = 'https://hooks.example.com/low-balance';

describeEachStore('low-balance settings', (kind) => {
  const get = useTestApp(kind);
  let token: string;
  beforeEach(async () => {
    token = await get().createToken(1000);
  });
  const read = () => get().inject({ method: 'GET', url: '/token/settings', headers: { 'x-token': token } });
  const write = (body: unknown) =>
    get().inject({
      method: 'PUT',
      url: '/token/settings',
      headers: { 'x-token': token, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  async function expectSaved(body: unknown) {
    const res = await write(body);
    expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([200, 'OK', PLAIN]);
  }
  async function expectRefused(body: unknown, message: string) {
    const before = (await read()).body;
    const res = await write(body);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe(PLAIN);
    expect(res.body).toBe(message);
    expect(res.headers['x-cost']).toBe('1');
    expect((await read()).body).toBe(before);
  }

  it('reads {"low_balance_threshold":0} and nothing else on a wallet never configured', async () => {
    const res = await read();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toBe('{"low_balance_threshold":0}');
  });

  it('costs 1 credit for every read and every update', async () => {
    expect((await read()).headers).toMatchObject({ 'x-cost': '1', 'x-balance': '999' });
    expect((await write({ low_balance_threshold: 3 })).headers).toMatchObject({ 'x-cost': '1', 'x-balance': '998' });
    expect((await write({ low_balance_threshold: -3 })).headers).toMatchObject({ 'x-cost': '1', 'x-balance': '997' });
  });

  it('saves threshold, webhook and e-mail and reads them back with header values redacted', async () => {
    await expectSaved({
      low_balance_threshold: 50,
      low_balance_webhook: { url: HOOK, headers: { Authorization: 'Bearer s3cret', 'X-Team': 'ops' }, format: 'slack' },
      low_balance_email: 'ops@example.com',
    });
    expect((await read()).json()).toStrictEqual({
      low_balance_threshold: 50,
      low_balance_webhook: { url: HOOK, headers: { Authorization: '***', 'X-Team': '***' }, format: 'slack' },
      low_balance_email: 'ops@example.com',
    });
  });

  it('reads back sensitive option values as *** and shows chat_id', async () => {
    const options = {
      chat_id: '-100123',
      bot_token: 't-1',
      client_secret: 's-1',
      password: 'p-1',
      api_key: 'k-1',
      KEY: 'k-2',
      label: 'night shift',
    };
    await expectSaved({ low_balance_webhook: { url: HOOK, format: 'telegram', options } });
    expect((await read()).json().low_balance_webhook).toStrictEqual({
      url: HOOK,
      headers: {},
      format: 'telegram',
      options: {
        chat_id: '-100123',
        bot_token: '***',
        client_secret: '***',
        password: '***',
        api_key: '***',
        KEY: '***',
        label: 'night shift',
      },
    });
  });

  it('reads back a pagerduty routing_key as ***', async () => {
    await expectSaved({ low_balance_webhook: { url: HOOK, format: 'pagerduty', options: { routing_key: 'R0UT1NG' } } });
    expect((await read()).json().low_balance_webhook).toStrictEqual({
      url: HOOK,
      headers: {},
      format: 'pagerduty',
      options: { routing_key: '***' },
    });
  });

  it('reads back a custom template exactly as saved', async () => {
    const template = { text: 'Balance {{wallet}} under {{threshold}} for {{token_hash}}', nested: { n: '{{wallet}}' } };
    await expectSaved({ low_balance_webhook: { url: HOOK, format: 'custom', template } });
    expect((await read()).json().low_balance_webhook).toStrictEqual({
      url: HOOK,
      headers: {},
      format: 'custom',
      template,
    });
  });

  it('merges: omitted fields keep their values, null clears webhook or e-mail, 0 disables the threshold', async () => {
    await expectSaved({
      low_balance_threshold: 10,
      low_balance_webhook: { url: HOOK },
      low_balance_email: 'a@example.com',
    });
    await expectSaved({ low_balance_threshold: 20 });
    expect((await read()).json()).toStrictEqual({
      low_balance_threshold: 20,
      low_balance_webhook: { url: HOOK, headers: {} },
      low_balance_email: 'a@example.com',
    });
    await expectSaved({});
    expect((await read()).json().low_balance_threshold).toBe(20);
    await expectSaved({ low_balance_email: null });
    expect((await read()).json()).toStrictEqual({
      low_balance_threshold: 20,
      low_balance_webhook: { url: HOOK, headers: {} },
    });
    await expectSaved({ low_balance_webhook: null, low_balance_email: 'b@example.com' });
    expect((await read()).json()).toStrictEqual({ low_balance_threshold: 20, low_balance_email: 'b@example.com' });
    await expectSaved({ low_balance_threshold: 0, low_balance_email: null });
    expect((await read()).body).toBe('{"low_balance_threshold":0}');
  });

  it('replaces the whole webhook when one is given', async () => {
    await expectSaved({ low_balance_webhook: { url: HOOK, headers: { 'X-A': '1' }, format: 'slack' } });
    await expectSaved({ low_balance_webhook: { url: `${HOOK}/2`, headers: { 'X-B': '2' } } });
    expect((await read()).json().low_balance_webhook).toStrictEqual({ url: `${HOOK}/2`, headers: { 'X-B': '***' } });
  });

  it('accepts the largest threshold, 1e12, an e-mail of 254 characters and a template of exactly 2048 bytes', async () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    expect(email).toHaveLength(254);
    await expectSaved({ low_balance_email: email });
    await expectSaved({ low_balance_threshold: 1e12 });
    expect((await read()).json().low_balance_threshold).toBe(1e12);
    const template = { text: 'x'.repeat(2048 - '{"text":""}'.length) };
    expect(Buffer.byteLength(JSON.stringify(template))).toBe(2048);
    await expectSaved({ low_balance_webhook: { url: HOOK, format: 'custom', template } });
  });

  it.each([
    [
      'a plain http url',
      { url: 'http://hooks.example.com/x' },
      'Invalid low_balance_webhook.url: must be an https URL',
    ],
    ['an ftp url', { url: 'ftp://hooks.example.com/x' }, 'Invalid low_balance_webhook.url: must be an https URL'],
    ['a relative url', { url: '/hook' }, 'Invalid low_balance_webhook.url: must be a valid URL'],
    ['a loopback url', { url: 'https://127.0.0.1/hook' }, 'Invalid low_balance_webhook.url: refused address'],
    ['a private url', { url: 'https://10.1.2.3/hook' }, 'Invalid low_balance_webhook.url: refused address'],
    [
      'a url with credentials',
      { url: 'https://user:pw@hooks.example.com/x' },
      'Invalid low_balance_webhook.url: must not contain credentials',
    ],
    ['no url', { headers: {} }, 'Missing required field: low_balance_webhook.url'],
    [
      'a host header',
      { url: HOOK, headers: { host: 'evil.example' } },
      'Invalid low_balance_webhook.headers: "host" cannot be set',
    ],
    [
      'a Content-Length header',
      { url: HOOK, headers: { 'Content-Length': '1' } },
      'Invalid low_balance_webhook.headers: "Content-Length" cannot be set',
    ],
    [
      'a transfer-encoding header',
      { url: HOOK, headers: { 'transfer-encoding': 'chunked' } },
      'Invalid low_balance_webhook.headers: "transfer-encoding" cannot be set',
    ],
    [
      'a Connection header',
      { url: HOOK, headers: { Connection: 'close' } },
      'Invalid low_balance_webhook.headers: "Connection" cannot be set',
    ],
    [
      'a header name with a space',
      { url: HOOK, headers: { 'bad name': 'v' } },
      'Invalid low_balance_webhook.headers: "bad name" is not a valid header name',
    ],
    [
      'pagerduty without routing_key',
      { url: HOOK, format: 'pagerduty', options: { severity: 'info' } },
      'Invalid low_balance_webhook.format: pagerduty requires options.routing_key',
    ],
    [
      'telegram without chat_id',
      { url: HOOK, format: 'telegram' },
      'Invalid low_balance_webhook.format: telegram requires options.chat_id',
    ],
    [
      'custom without template',
      { url: HOOK, format: 'custom' },
      'Invalid low_balance_webhook.format: custom requires a template',
    ],
    [
      'a template over 2048 bytes',
      { url: HOOK, format: 'custom', template: { text: 'x'.repeat(2038) } },
      'Invalid low_balance_webhook.template: must be at most 2048 bytes',
    ],
    [
      'an option that is not a string',
      { url: HOOK, options: { chat_id: 42 } },
      'Invalid low_balance_webhook.options.chat_id: must be string',
    ],
    ['an unknown webhook field', { url: HOOK, method: 'GET' }, 'Unknown field: low_balance_webhook.method'],
    // Worded as the webhook routes word the same rules (format-config.ts), not as the schema validator would.
    [
      'more than 10 options',
      { url: HOOK, options: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])) },
      'Invalid low_balance_webhook.options: at most 10 keys',
    ],
    [
      'an option over 500 characters',
      { url: HOOK, options: { k: 'x'.repeat(501) } },
      'Invalid low_balance_webhook.options.k: must be at most 500 characters',
    ],
  ])('answers 400 to a webhook with %s, and keeps the earlier settings', async (_name, webhook, message) => {
    await expectSaved({ low_balance_webhook: { url: HOOK }, low_balance_threshold: 7 });
    await expectRefused({ low_balance_webhook: webhook }, message);
  });

  it.each([
    ['negative', -1],
    ['fractional', 1.5],
    ['too large', 1e12 + 1],
    ['a string', '10'],
    ['null', null],
  ])('answers 400 to a %s threshold', async (_name, threshold) => {
    await expectRefused({ low_balance_threshold: threshold }, THRESHOLD_RULE);
  });

  it.each([
    ['without a domain', 'ops'],
    ['without a dot in the domain', 'ops@localhost'],
    ['empty', ''],
    ['of 255 characters', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`],
    ['a number', 42],
  ])('answers 400 to an e-mail %s', async (_name, email) => {
    await expectRefused({ low_balance_email: email }, EMAIL_RULE);
  });

  it('answers 400 to an unknown field', async () => {
    await expectRefused({ low_balance_threshold: 5, low_balance_sms: '+3312345678' }, 'Unknown field: low_balance_sms');
  });

  it('answers 400 to an unknown format, naming the allowed ones in a clean sentence', async () => {
    const res = await write({ low_balance_webhook: { url: HOOK, format: 'sms' } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(
      /^Invalid low_balance_webhook\.format: must be one of slack, discord, teams, telegram, pagerduty, custom\b/,
    );
    expect(res.body).not.toMatch(/,\s*$/);
  });
});
