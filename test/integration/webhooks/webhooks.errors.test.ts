import { beforeEach, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { PLAIN, expectError, ok, storedRow, useReceiver, webhookApi } from './webhook-fixtures.js';
import type { WebhookApi } from './webhook-fixtures.js';

const START = Date.parse('2026-06-01T12:00:00.000Z');
const ID_RULE = 'Invalid webhookId: must be 1 to 30 characters from A-Z, a-z, 0-9, _ and -';
const SCHEDULE = { cron: '0 9 * * *', timezone: 'UTC' };
const deep = { a: { b: { c: { d: { e: '{{subject}}' } } } } };
const tooDeep = { a: { b: { c: { d: { e: { f: '{{subject}}' } } } } } };
const options = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 'v']));

/** [name, extra body fields, 400 body]; `url` is added unless the case sets it. */
const CREATE_CASES: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
  ['a webhookId of 31 characters', { webhookId: 'a'.repeat(31) }, ID_RULE],
  ['an empty webhookId', { webhookId: '' }, ID_RULE],
  ['a webhookId with a space', { webhookId: 'a b' }, ID_RULE],
  ['a webhookId with a dot', { webhookId: 'a.b' }, ID_RULE],
  ['the reserved webhookId call', { webhookId: 'call' }, 'Invalid webhookId: call is reserved'],
  ['an unknown field', { colour: 'red' }, 'Unknown field: colour'],
  ['no url', { url: undefined }, 'Missing required field: url'],
  ['an http url', { url: 'http://127.0.0.1/hook' }, 'Invalid url: must be an https URL'],
  ['an ftp url', { url: 'ftp://127.0.0.1/hook' }, 'Invalid url: must be an https URL'],
  ['a url that is no URL', { url: 'not a url' }, 'Invalid url: must be a valid URL'],
  ['a url with credentials', { url: 'https://user:pw@127.0.0.1/hook' }, 'Invalid url: must not contain credentials'],
  ['a url that is not a string', { url: 42 }, 'Invalid url: must be string'],
  ['a url on port 0', { url: 'https://example.com:0/hook' }, 'Invalid url: port 0 is not a port'],
  ['a Host header', { headers: { Host: 'evil.example' } }, 'Invalid headers: "Host" cannot be set'],
  [
    'two headers whose names differ only in case',
    { headers: { Authorization: 'a', authorization: 'b' } },
    'Invalid headers: "authorization" is given twice (header names ignore case)',
  ],
  [
    'a content-length header',
    { headers: { 'content-length': '1' } },
    'Invalid headers: "content-length" cannot be set',
  ],
  [
    'a Transfer-Encoding header',
    { headers: { 'Transfer-Encoding': 'chunked' } },
    'Invalid headers: "Transfer-Encoding" cannot be set',
  ],
  ['a connection header', { headers: { connection: 'close' } }, 'Invalid headers: "connection" cannot be set'],
  ['a keep-alive header', { headers: { 'Keep-Alive': '5' } }, 'Invalid headers: "Keep-Alive" cannot be set'],
  [
    'a webhook-signature header',
    { headers: { 'webhook-signature': 'v1,x' } },
    'Invalid headers: "webhook-signature" cannot be set',
  ],
  [
    'a header name with a space',
    { headers: { 'bad name': 'v' } },
    'Invalid headers: "bad name" is not a valid header name',
  ],
  [
    'a header value with a newline',
    { headers: { 'X-A': 'a\r\nX-B: b' } },
    'Invalid headers: value of "X-A" contains control characters',
  ],
  ['a header value that is not a string', { headers: { 'X-A': 1 } }, 'Invalid headers.X-A: must be string'],
  ['11 options', { options: options(11) }, 'Invalid options: at most 10 keys'],
  [
    'an option of 501 characters',
    { options: { label: 'x'.repeat(501) } },
    'Invalid options: label must be at most 500 characters',
  ],
  ['an option that is not a string', { options: { chat_id: 42 } }, 'Invalid options.chat_id: must be string'],
  [
    'an unknown format',
    { format: 'email' },
    'Invalid format: must be one of slack, discord, teams, telegram, pagerduty, custom or ""',
  ],
  [
    'pagerduty without routing_key',
    { format: 'pagerduty', options: { severity: 'info' } },
    'Invalid format: pagerduty requires options.routing_key',
  ],
  ['telegram without chat_id', { format: 'telegram' }, 'Invalid format: telegram requires options.chat_id'],
  ['custom without template', { format: 'custom' }, 'Invalid format: custom requires a template'],
  [
    'a template over 2048 bytes',
    { format: 'custom', template: { text: 'x'.repeat(2038) } },
    'Invalid template: must be at most 2048 bytes',
  ],
  [
    'a template deeper than 5 levels',
    { format: 'custom', template: tooDeep },
    'Invalid template: nesting deeper than 5 levels',
  ],
  [
    'a template with an unclosed placeholder',
    { format: 'custom', template: { text: 'Hi {{from.name' } },
    'Invalid template: unterminated placeholder at "{{from.name"',
  ],
  ['a template that is an array', { format: 'custom', template: ['{{subject}}'] }, 'Invalid template: must be object'],
  [
    'includeAttachments that is not a boolean',
    { includeAttachments: 'yes' },
    'Invalid includeAttachments: must be boolean',
  ],
  [
    'a schedule and a format',
    { schedule: SCHEDULE, format: 'slack' },
    'Invalid field combination: format is for mailbox webhooks and cannot be sent with schedule',
  ],
  [
    'a schedule and a template',
    { schedule: SCHEDULE, template: { a: 'b' } },
    'Invalid field combination: template is for mailbox webhooks and cannot be sent with schedule',
  ],
  [
    'a schedule and options',
    { schedule: SCHEDULE, options: {} },
    'Invalid field combination: options is for mailbox webhooks and cannot be sent with schedule',
  ],
  [
    'a schedule and includeAttachments',
    { schedule: SCHEDULE, includeAttachments: true },
    'Invalid field combination: includeAttachments is for mailbox webhooks and cannot be sent with schedule',
  ],
  ['a schedule without cron', { schedule: { timezone: 'UTC' } }, 'Missing required field: schedule.cron'],
  ['a schedule without timezone', { schedule: { cron: '0 9 * * *' } }, 'Missing required field: schedule.timezone'],
  ['an unknown schedule field', { schedule: { ...SCHEDULE, start: 'now' } }, 'Unknown field: schedule.start'],
  ['a schedule that is not an object', { schedule: '0 9 * * *' }, 'Invalid schedule: must be object'],
  [
    'a cron with a bad minute',
    { schedule: { cron: '61 * * * *', timezone: 'UTC' } },
    'Invalid schedule.cron: minute "61" is out of range 0-59',
  ],
  [
    'a cron of 6 fields',
    { schedule: { cron: '0 0 9 * * *', timezone: 'UTC' } },
    'Invalid schedule.cron: must have 5 fields (minute hour day month weekday)',
  ],
  [
    'the @daily shortcut',
    { schedule: { cron: '@daily', timezone: 'UTC' } },
    'Invalid schedule.cron: @ shortcuts are not supported, use 5 fields (minute hour day month weekday)',
  ],
  [
    'an unknown time zone',
    { schedule: { cron: '0 9 * * *', timezone: 'Mars/Olympus' } },
    'Invalid schedule.timezone: unknown IANA time zone "Mars/Olympus"',
  ],
  [
    '0 0 31 * * (first run 60 days away)',
    { schedule: { cron: '0 0 31 * *', timezone: 'UTC' } },
    'Invalid schedule.cron: first run must fall within 30 days',
  ],
  [
    '0 0 29 * * (59 days from Jan 29 to Mar 29)',
    { schedule: { cron: '0 0 29 * *', timezone: 'UTC' } },
    'Invalid schedule.cron: interval between runs exceeds 31 days',
  ],
  [
    '0 0 30 * *',
    { schedule: { cron: '0 0 30 * *', timezone: 'UTC' } },
    'Invalid schedule.cron: interval between runs exceeds 31 days',
  ],
  [
    '0 0 1 */2 * (every other month)',
    { schedule: { cron: '0 0 1 */2 *', timezone: 'UTC' } },
    'Invalid schedule.cron: interval between runs exceeds 31 days',
  ],
  [
    'a yearly cron',
    { schedule: { cron: '0 0 1 1 *', timezone: 'UTC' } },
    'Invalid schedule.cron: first run must fall within 30 days',
  ],
  [
    'a cron that never fires',
    { schedule: { cron: '0 0 30 2 *', timezone: 'UTC' } },
    'Invalid schedule.cron: never fires (no date matches its day, month and weekday)',
  ],
  [
    'an active flag that is not a boolean',
    { schedule: { ...SCHEDULE, active: 'yes' } },
    'Invalid schedule.active: must be boolean',
  ],
];

describeEachStore('webhooks: refused requests', (kind) => {
  const clock = new ManualClock(START);
  const { env, receiver } = useReceiver();
  const get = useTestApp(kind, { clock, env });
  let api: WebhookApi;
  let url: string;
  beforeEach(async () => {
    clock.set(START);
    api = webhookApi(get(), await get().createToken(1000));
    url = receiver().url('/hook', '127.0.0.1');
  });

  it.each(CREATE_CASES)('POST answers 400 to %s, charges 1 and creates nothing', async (_name, fields, message) => {
    const res = await api.create({ url, ...fields });
    expectError(res, 400, message);
    expect(res.headers['x-balance']).toBe('999');
    expect(ok(await api.list()).webhooks).toEqual([]);
  });

  it.each(CREATE_CASES.filter(([name]) => !name.includes('webhookId')))(
    'PUT answers 400 to %s and keeps the webhook as it was',
    async (_name, fields, message) => {
      const before = ok(await api.create({ url, headers: { 'X-A': '1' } }));
      expectError(await api.put('default', { url, ...fields }), 400, message);
      const { signingSecret: _secret, ...expected } = before;
      expect(ok(await api.get('default'))).toStrictEqual(expected);
    },
  );

  it('accepts the limits exactly: 10 options of 500 characters, a 2048-byte template of 5 levels, 0 0 28 * * and 0 0 1 * *', async () => {
    const template = { text: 'x'.repeat(2048 - '{"text":""}'.length) };
    expect(Buffer.byteLength(JSON.stringify(template))).toBe(2048);
    ok(
      await api.create({
        webhookId: 'a',
        url,
        options: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'x'.repeat(500)])),
      }),
    );
    ok(await api.create({ webhookId: 'b', url, format: 'custom', template }));
    ok(await api.create({ webhookId: 'c', url, format: 'custom', template: deep }));
    ok(await api.create({ webhookId: 'd', url, schedule: { cron: '0 0 28 * *', timezone: 'UTC' } }));
    ok(await api.create({ webhookId: 'e', url, schedule: { cron: '0 0 1 * *', timezone: 'Pacific/Kiritimati' } }));
    ok(await api.create({ webhookId: 'A-z_09', url }));
    ok(await api.create({ webhookId: 'x'.repeat(30), url }));
  });

  it('refuses 0 0 31 * * for its gaps even when its first run is near', async () => {
    clock.set(Date.parse('2026-07-15T00:00:00.000Z'));
    expectError(
      await api.create({ url, schedule: { cron: '0 0 31 * *', timezone: 'UTC' } }),
      400,
      'Invalid schedule.cron: interval between runs exceeds 31 days',
    );
  });

  it('answers 409 "Webhook ID already exists" to a second create with the same id, and keeps the first', async () => {
    const first = ok(await api.create({ url }));
    expectError(await api.create({ url: `${url}/other`, format: 'slack' }), 409, 'Webhook ID already exists');
    expect(ok(await api.get('default')).webhook).toBe(first.webhook);
    ok(await api.create({ webhookId: 'second', url }));
    expectError(await api.create({ webhookId: 'second', url, schedule: SCHEDULE }), 409, 'Webhook ID already exists');
  });

  it('answers 404 "Webhook not found" to every call on an unknown webhook, and still charges it', async () => {
    expectError(await api.get('nope'), 404, 'Webhook not found');
    expectError(await api.put('nope', { url }), 404, 'Webhook not found');
    expectError(await api.patch('nope', { url }), 404, 'Webhook not found');
    expectError(await api.remove('nope'), 404, 'Webhook not found');
    const test = await api.test('nope');
    expectError(test, 404, 'Webhook not found');
    expect(test.headers['x-balance']).toBe('995');
  });

  it('answers 400 to a malformed webhookId in the path', async () => {
    expectError(await api.get('a.b'), 400, ID_RULE);
    expectError(await api.get('a'.repeat(31)), 400, ID_RULE);
    expectError(await api.remove('a%20b'), 400, ID_RULE);
    expectError(await api.test('a.b'), 400, ID_RULE);
  });

  it('refuses the 101st webhook of a wallet with 400, and accepts one again after a delete', async () => {
    for (let i = 0; i < 100; i++) ok(await api.create({ webhookId: `w${i}`, url }));
    expectError(await api.create({ webhookId: 'w100', url }), 400, 'Too many webhooks: a wallet may hold at most 100');
    expect(ok(await api.list()).webhooks).toHaveLength(100);
    const other = webhookApi(get(), await get().createToken(10));
    ok(await other.create({ url }));
    expect((await api.remove('w0')).body).toBe('OK');
    ok(await api.create({ webhookId: 'w100', url }));
  });

  it('holds the limit and the unique id under concurrent creates', async () => {
    for (let i = 0; i < 98; i++) ok(await api.create({ webhookId: `w${i}`, url }));
    const same = await Promise.all([api.create({ webhookId: 'dup', url }), api.create({ webhookId: 'dup', url })]);
    expect(same.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    const racing = await Promise.all([
      api.create({ webhookId: 'x1', url }),
      api.create({ webhookId: 'x2', url }),
      api.create({ webhookId: 'x3', url }),
    ]);
    expect(racing.map((res) => res.statusCode).sort()).toEqual([200, 400, 400]);
    expect(ok(await api.list()).webhooks).toHaveLength(100);
  });

  it('PUT answers 400 to a body webhookId other than the path one, and accepts the same one', async () => {
    ok(await api.create({ url }));
    expectError(
      await api.put('default', { webhookId: 'other', url }),
      400,
      'Invalid webhookId: must match the path (a webhook cannot be renamed)',
    );
    ok(await api.put('default', { webhookId: 'default', url }));
  });

  describe('PATCH', () => {
    it('answers 400 to webhookId in the body', async () => {
      ok(await api.create({ url }));
      expectError(await api.patch('default', { webhookId: 'renamed' }), 400, 'Unknown field: webhookId');
      expectError(await api.get('renamed'), 404, 'Webhook not found');
    });

    it.each([
      ['an unknown field', { colour: 'red' }, 'Unknown field: colour'],
      ['an unknown schedule field', { schedule: { every: '1h' } }, 'Unknown field: schedule.every'],
      ['an http url', { url: 'http://127.0.0.1/x' }, 'Invalid url: must be an https URL'],
      ['a forbidden header', { headers: { Host: 'x' } }, 'Invalid headers: "Host" cannot be set'],
      [
        'format pagerduty without routing_key',
        { format: 'pagerduty' },
        'Invalid format: pagerduty requires options.routing_key',
      ],
      ['format custom without template', { format: 'custom' }, 'Invalid format: custom requires a template'],
      ['11 options', { options: options(11) }, 'Invalid options: at most 10 keys'],
      [
        'a schedule with a format',
        { schedule: SCHEDULE, format: 'slack' },
        'Invalid field combination: format is for mailbox webhooks and cannot be sent with schedule',
      ],
      [
        'a schedule without a time zone on a mailbox webhook',
        { schedule: { cron: '0 9 * * *' } },
        'Missing required field: schedule.timezone',
      ],
      [
        'a schedule without a cron on a mailbox webhook',
        { schedule: { timezone: 'UTC' } },
        'Missing required field: schedule.cron',
      ],
      ['rotateSecret that is not a boolean', { rotateSecret: 'yes' }, 'Invalid rotateSecret: must be boolean'],
    ])('answers 400 to %s on a mailbox webhook and changes nothing', async (_name, patch, message) => {
      const before = ok(await api.create({ url, format: 'telegram', options: { chat_id: '1' } }));
      expectError(await api.patch('default', patch), 400, message);
      const { signingSecret: _secret, ...expected } = before;
      expect(ok(await api.get('default'))).toStrictEqual(expected);
    });

    it.each([
      [
        'a format',
        { format: 'slack' },
        'Invalid field combination: format is for mailbox webhooks and this webhook is scheduled (send "schedule": null to switch)',
      ],
      [
        'includeAttachments',
        { includeAttachments: false },
        'Invalid field combination: includeAttachments is for mailbox webhooks and this webhook is scheduled (send "schedule": null to switch)',
      ],
      [
        'options with a schedule change',
        { schedule: { active: false }, options: {} },
        'Invalid field combination: options is for mailbox webhooks and cannot be sent with schedule',
      ],
      [
        'a cron with gaps over 31 days',
        { schedule: { cron: '0 0 29 * *' } },
        'Invalid schedule.cron: interval between runs exceeds 31 days',
      ],
      [
        'a cron with a bad hour',
        { schedule: { cron: '0 24 * * *' } },
        'Invalid schedule.cron: hour "24" is out of range 0-23',
      ],
      [
        'the @daily shortcut',
        { schedule: { cron: '@daily' } },
        'Invalid schedule.cron: @ shortcuts are not supported, use 5 fields (minute hour day month weekday)',
      ],
      [
        'a bad time zone',
        { schedule: { timezone: 'Europe/Atlantis' } },
        'Invalid schedule.timezone: unknown IANA time zone "Europe/Atlantis"',
      ],
    ])('answers 400 to %s on a scheduled webhook and changes nothing', async (_name, patch, message) => {
      const before = ok(await api.create({ url, schedule: SCHEDULE }));
      expectError(await api.patch('default', patch), 400, message);
      const { signingSecret: _secret, ...expected } = before;
      expect(ok(await api.get('default'))).toStrictEqual(expected);
    });
  });

  it('answers 400 to a body that is not JSON or not an object', async () => {
    const t = get();
    const token = await t.createToken(10);
    const post = (payload: string) =>
      t.inject({
        method: 'POST',
        url: '/webhook',
        headers: { 'x-token': token, 'content-type': 'application/json' },
        payload,
      });
    expectError(await post('{"url":'), 400, 'Invalid JSON body');
    expectError(await post('[]'), 400, 'Invalid body: must be a JSON object');
  });

  it('answers 405 with an allow header to other methods on the webhook paths', async () => {
    ok(await api.create({ webhookId: 'x', url }));
    const token = await get().createToken(10);
    const testPath = await get().inject({ method: 'GET', url: '/webhook/x/test', headers: { 'x-token': token } });
    expect([testPath.statusCode, testPath.body, testPath.headers.allow, testPath.headers['content-type']]).toEqual([
      405,
      'Method Not Allowed',
      'POST',
      PLAIN,
    ]);
    const put = await get().inject({ method: 'PUT', url: '/webhook/x/test', headers: { 'x-token': token } });
    expect(put.statusCode).toBe(405);
    const one = await get().inject({ method: 'POST', url: '/webhook/x', headers: { 'x-token': token } });
    expect([one.statusCode, one.headers.allow]).toEqual([405, 'GET, HEAD, PUT, PATCH, DELETE']);
    const list = await get().inject({ method: 'DELETE', url: '/webhook', headers: { 'x-token': token } });
    expect([list.statusCode, list.headers.allow]).toEqual([405, 'GET, HEAD, POST']);
  });

  it('answers 401 without a token and 402 to a wallet with no credits, creating nothing', async () => {
    const anonymous = await get().inject({
      method: 'POST',
      url: '/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ url }),
    });
    expect([anonymous.statusCode, anonymous.body]).toEqual([401, 'Unauthorized']);
    const emptyToken = await get().createToken(0);
    const broke = webhookApi(get(), emptyToken);
    const res = await broke.create({ url });
    expect([res.statusCode, res.body, res.headers['x-cost'], res.headers['x-balance']]).toEqual([
      402,
      'Insufficient credits',
      '0',
      '0',
    ]);
    expect(await storedRow(get(), emptyToken, 'default', 'webhook_id')).toBeUndefined();
  });
});

describeEachStore('webhooks: callback URLs must be public', (kind) => {
  // No OUTBOUND_ALLOW_CIDRS: loopback and private ranges are refused as in production.
  const get = useTestApp(kind);
  let api: WebhookApi;
  beforeEach(async () => {
    api = webhookApi(get(), await get().createToken(1000));
  });

  it.each([
    ['loopback', 'https://127.0.0.1/hook'],
    ['loopback by name', 'https://localhost:8443/hook'],
    ['a localhost subdomain', 'https://api.localhost/hook'],
    ['IPv6 loopback', 'https://[::1]/hook'],
    ['a 10/8 address', 'https://10.1.2.3/hook'],
    ['a 192.168/16 address', 'https://192.168.0.10/hook'],
    ['a 172.16/12 address', 'https://172.16.5.4/hook'],
    ['link-local metadata', 'https://169.254.169.254/latest'],
    ['the unspecified address', 'https://0.0.0.0/hook'],
    ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
  ])('refuses %s with 400 on create, replace and patch', async (_name, target) => {
    expectError(await api.create({ url: target }), 400, 'Invalid url: refused address');
    expectError(await api.create({ url: target, schedule: SCHEDULE }), 400, 'Invalid url: refused address');
    ok(await api.create({ url: 'https://93.184.215.14/hook' }));
    expectError(await api.put('default', { url: target }), 400, 'Invalid url: refused address');
    expectError(await api.patch('default', { url: target }), 400, 'Invalid url: refused address');
    expect(ok(await api.get('default')).webhook).toBe('https://93.184.215.14/hook');
  });
});
