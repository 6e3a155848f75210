import { beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import {
  MAILBOX_ADDRESS,
  PLAIN,
  SIGNING_SECRET,
  expectError,
  ok,
  storedRow,
  useReceiver,
  webhookApi,
} from './webhook-fixtures.js';
import type { WebhookApi } from './webhook-fixtures.js';

const START = Date.parse('2026-06-01T12:00:00.000Z');
const MAILBOX_KEYS = ['webhookId', 'webhook', 'headers', 'options', 'includeAttachments', 'email', 'hash'];
const SCHEDULED_KEYS = ['webhookId', 'webhook', 'headers', 'schedule', 'hash'];

describeEachStore('webhooks: create, read, replace, patch, delete', (kind) => {
  const clock = new ManualClock(START);
  const { env, receiver } = useReceiver();
  const get = useTestApp(kind, { clock, env });
  let api: WebhookApi;
  let token: string;
  let hash: string;
  let url: string;
  beforeEach(async () => {
    clock.set(START);
    token = await get().createToken(1000);
    hash = sha256Hex(token);
    api = webhookApi(get(), token);
    url = receiver().url('/hook', '127.0.0.1');
  });

  it('creates a mailbox webhook with the defaults: id "default", no headers, no format, attachments included', async () => {
    const res = await api.create({ url });
    expect(res.headers).toMatchObject({ 'x-cost': '1', 'x-balance': '999' });
    const body = ok(res);
    expect(Object.keys(body)).toEqual([...MAILBOX_KEYS, 'signingSecret']);
    expect(body).toStrictEqual({
      webhookId: 'default',
      webhook: url,
      headers: {},
      options: {},
      includeAttachments: true,
      email: expect.stringMatching(MAILBOX_ADDRESS),
      hash,
      signingSecret: expect.stringMatching(SIGNING_SECRET),
    });
  });

  it('creates a mailbox webhook with every mailbox field, reading back header values and secret options as ***', async () => {
    const template = { text: '{{subject}}', who: { name: '{{from.name|"someone"}}' } };
    const body = ok(
      await api.create({
        webhookId: 'Mail_box-1',
        url,
        headers: { Authorization: 'Bearer s3cret', 'X-Team': 'ops' },
        format: 'custom',
        template,
        options: { chat_id: '-100', bot_token: 't', api_key: 'k', label: 'night' },
        includeAttachments: false,
      }),
    );
    expect(Object.keys(body)).toEqual([
      'webhookId',
      'webhook',
      'headers',
      'format',
      'template',
      'options',
      'includeAttachments',
      'email',
      'hash',
      'signingSecret',
    ]);
    expect(body).toMatchObject({
      webhookId: 'Mail_box-1',
      headers: { Authorization: '***', 'X-Team': '***' },
      format: 'custom',
      template,
      options: { chat_id: '-100', bot_token: '***', api_key: '***', label: 'night' },
      includeAttachments: false,
    });
    const read = ok(await api.get('Mail_box-1'));
    const { signingSecret: _secret, ...withoutSecret } = body;
    expect(read).toStrictEqual(withoutSecret);
  });

  it('creates a scheduled webhook: schedule with active true and nextRunAt, no mailbox fields', async () => {
    const body = ok(
      await api.create({ webhookId: 'nightly', url, schedule: { cron: '0 9 * * *', timezone: 'Europe/Rome' } }),
    );
    expect(Object.keys(body)).toEqual([...SCHEDULED_KEYS, 'signingSecret']);
    expect(body).toStrictEqual({
      webhookId: 'nightly',
      webhook: url,
      headers: {},
      schedule: { cron: '0 9 * * *', timezone: 'Europe/Rome', active: true, nextRunAt: '2026-06-02T07:00:00.000Z' },
      hash,
      signingSecret: expect.stringMatching(SIGNING_SECRET),
    });
    expect(Object.keys(body.schedule)).toEqual(['cron', 'timezone', 'active', 'nextRunAt']);
  });

  it('creates an inactive schedule without nextRunAt and stores the canonical time zone name', async () => {
    const body = ok(
      await api.create({ url, schedule: { cron: '*/15 * * * *', timezone: 'europe/rome', active: false } }),
    );
    expect(body.schedule).toStrictEqual({ cron: '*/15 * * * *', timezone: 'Europe/Rome', active: false });
  });

  it('never shows the signing secret again after create', async () => {
    ok(await api.create({ webhookId: 'a', url }));
    expect(ok(await api.get('a'))).not.toHaveProperty('signingSecret');
    expect(ok(await api.list()).webhooks[0]).not.toHaveProperty('signingSecret');
    expect(ok(await api.put('a', { url }))).not.toHaveProperty('signingSecret');
    expect(ok(await api.patch('a', { headers: {} }))).not.toHaveProperty('signingSecret');
  });

  it('gives each webhook its own mailbox address and signing secret', async () => {
    const one = ok(await api.create({ webhookId: 'one', url }));
    const two = ok(await api.create({ webhookId: 'two', url }));
    expect(one.email).not.toBe(two.email);
    expect(one.signingSecret).not.toBe(two.signingSecret);
  });

  it('treats format "" as no format', async () => {
    const body = ok(await api.create({ url, format: '' }));
    expect(body).not.toHaveProperty('format');
    expect(Object.keys(ok(await api.get('default')))).toEqual(MAILBOX_KEYS);
  });

  it('shows the template only while the format is custom', async () => {
    const template = { text: '{{subject}}' };
    expect(ok(await api.create({ url, format: 'slack', template }))).not.toHaveProperty('template');
    expect(ok(await api.patch('default', { format: 'custom' })).template).toStrictEqual(template);
  });

  it('lists {"webhooks": []} when there are none, then every webhook in creation order', async () => {
    expect((await api.list()).body).toBe('{"webhooks":[]}');
    const mailbox = ok(await api.create({ webhookId: 'zeta', url }));
    clock.advance(1000);
    const scheduled = ok(
      await api.create({ webhookId: 'alpha', url, schedule: { cron: '*/15 * * * *', timezone: 'UTC' } }),
    );
    const list = ok(await api.list());
    expect(Object.keys(list)).toEqual(['webhooks']);
    const strip = ({ signingSecret: _s, ...rest }: Record<string, unknown>) => rest;
    expect(list.webhooks).toStrictEqual([strip(mailbox), strip(scheduled)]);
  });

  it('shows lastRunAt, lastStatus and lastError once a run happened, and keeps them while the webhook stays scheduled', async () => {
    ok(await api.create({ webhookId: 'cron', url, schedule: { cron: '*/15 * * * *', timezone: 'UTC' } }));
    await get().deps.store.write((tx) =>
      tx.run(
        "UPDATE webhooks SET last_run_at = $1, last_status = 'failure', last_error = 'HTTP 500' WHERE webhook_id = 'cron' AND wallet_id = (SELECT id FROM wallets WHERE hash = $2)",
        [START - 60_000, hash],
      ),
    );
    const expected = {
      cron: '*/15 * * * *',
      timezone: 'UTC',
      active: true,
      nextRunAt: '2026-06-01T12:15:00.000Z',
      lastRunAt: '2026-06-01T11:59:00.000Z',
      lastStatus: 'failure',
      lastError: 'HTTP 500',
    };
    expect(ok(await api.get('cron')).schedule).toStrictEqual(expected);
    expect(ok(await api.list()).webhooks[0].schedule).toStrictEqual(expected);
    expect(ok(await api.patch('cron', { url: `${url}?v=2` })).schedule).toStrictEqual(expected);
    expect(ok(await api.patch('cron', { schedule: null }))).not.toHaveProperty('schedule');
    expect(ok(await api.patch('cron', { schedule: { cron: '*/15 * * * *', timezone: 'UTC' } })).schedule).toStrictEqual(
      {
        cron: '*/15 * * * *',
        timezone: 'UTC',
        active: true,
        nextRunAt: '2026-06-01T12:15:00.000Z',
      },
    );
  });

  it('PUT replaces the whole configuration and keeps the mailbox address', async () => {
    const created = ok(
      await api.create({
        url,
        headers: { 'X-A': '1' },
        format: 'telegram',
        options: { chat_id: '7' },
        includeAttachments: false,
      }),
    );
    const replaced = ok(await api.put('default', { url: `${url}/2`, format: 'slack' }));
    expect(replaced).toStrictEqual({
      webhookId: 'default',
      webhook: `${url}/2`,
      headers: {},
      format: 'slack',
      options: {},
      includeAttachments: true,
      email: created.email,
      hash,
    });
    expect(ok(await api.get('default'))).toStrictEqual(replaced);
  });

  it('PUT with a schedule switches to scheduled mode, and PUT without one switches back with a new mailbox address', async () => {
    const created = ok(await api.create({ url, format: 'discord' }));
    const scheduled = ok(
      await api.put('default', { url, schedule: { cron: '0 * * * *', timezone: 'UTC', active: true } }),
    );
    expect(scheduled).toStrictEqual({
      webhookId: 'default',
      webhook: url,
      headers: {},
      schedule: { cron: '0 * * * *', timezone: 'UTC', active: true, nextRunAt: '2026-06-01T13:00:00.000Z' },
      hash,
    });
    const back = ok(await api.put('default', { url, includeAttachments: false }));
    expect(Object.keys(back)).toEqual(MAILBOX_KEYS);
    expect(back.email).toMatch(MAILBOX_ADDRESS);
    expect(back.email).not.toBe(created.email);
    expect(back.includeAttachments).toBe(false);
  });

  it('PATCH replaces url, headers, format, options and includeAttachments and leaves the rest', async () => {
    const created = ok(
      await api.create({
        url,
        headers: { 'X-A': '1', 'X-B': '2' },
        format: 'telegram',
        options: { chat_id: '7', label: 'x' },
      }),
    );
    ok(await api.patch('default', { url: `${url}/new` }));
    ok(await api.patch('default', { headers: { 'X-C': '3' } }));
    ok(await api.patch('default', { options: { chat_id: '8' } }));
    const patched = ok(await api.patch('default', { includeAttachments: false }));
    expect(patched).toStrictEqual({
      webhookId: 'default',
      webhook: `${url}/new`,
      headers: { 'X-C': '***' },
      format: 'telegram',
      options: { chat_id: '8' },
      includeAttachments: false,
      email: created.email,
      hash,
    });
    expect(ok(await api.patch('default', { format: 'discord' })).format).toBe('discord');
    expect(ok(await api.patch('default', { format: '' }))).not.toHaveProperty('format');
  });

  it('PATCH headers {} and options {} clear them (null too)', async () => {
    ok(await api.create({ url, headers: { 'X-A': '1' }, options: { label: 'x' } }));
    const cleared = ok(await api.patch('default', { headers: {}, options: {} }));
    expect([cleared.headers, cleared.options]).toEqual([{}, {}]);
    ok(await api.patch('default', { headers: { 'X-A': '1' }, options: { label: 'x' } }));
    const nulled = ok(await api.patch('default', { headers: null, options: null }));
    expect([nulled.headers, nulled.options]).toEqual([{}, {}]);
  });

  it('PATCH template replaces it and null removes it', async () => {
    ok(await api.create({ url, format: 'custom', template: { a: '{{subject}}' } }));
    expect(ok(await api.patch('default', { template: { b: '{{text}}' } })).template).toStrictEqual({ b: '{{text}}' });
    expect(ok(await api.patch('default', { format: 'slack', template: null }))).not.toHaveProperty('template');
    expectError(await api.patch('default', { format: 'custom' }), 400, 'Invalid format: custom requires a template');
    expect(await storedRow(get(), token, 'default', 'template')).toEqual({ template: null });
  });

  it('PATCH schedule.active false pauses the schedule and keeps cron and time zone; true resumes from now', async () => {
    ok(await api.create({ url, schedule: { cron: '30 * * * *', timezone: 'America/New_York' } }));
    const paused = ok(await api.patch('default', { schedule: { active: false } }));
    expect(paused.schedule).toStrictEqual({ cron: '30 * * * *', timezone: 'America/New_York', active: false });
    expect(await storedRow(get(), token, 'default', 'active, next_run_at')).toEqual({ active: 0, next_run_at: null });
    clock.advance(3 * 3600_000);
    const resumed = ok(await api.patch('default', { schedule: { active: true } }));
    expect(resumed.schedule).toStrictEqual({
      cron: '30 * * * *',
      timezone: 'America/New_York',
      active: true,
      nextRunAt: '2026-06-01T15:30:00.000Z',
    });
  });

  it('PATCH with some schedule fields validates the merged schedule and recomputes nextRunAt', async () => {
    ok(await api.create({ url, schedule: { cron: '0 9 * * *', timezone: 'UTC' } }));
    expect(ok(await api.patch('default', { schedule: { cron: '45 12 * * *' } })).schedule).toStrictEqual({
      cron: '45 12 * * *',
      timezone: 'UTC',
      active: true,
      nextRunAt: '2026-06-01T12:45:00.000Z',
    });
    expect(ok(await api.patch('default', { schedule: { timezone: 'Asia/Tokyo' } })).schedule).toStrictEqual({
      cron: '45 12 * * *',
      timezone: 'Asia/Tokyo',
      active: true,
      nextRunAt: '2026-06-02T03:45:00.000Z',
    });
  });

  it('PATCH schedule null returns to mailbox mode with a new mailbox address, and may set mailbox fields at once', async () => {
    const created = ok(await api.create({ url, headers: { 'X-A': '1' } }));
    ok(await api.patch('default', { schedule: { cron: '0 9 * * *', timezone: 'UTC' } }));
    const back = ok(await api.patch('default', { schedule: null, format: 'slack' }));
    expect(back).toStrictEqual({
      webhookId: 'default',
      webhook: url,
      headers: { 'X-A': '***' },
      format: 'slack',
      options: {},
      includeAttachments: true,
      email: expect.stringMatching(MAILBOX_ADDRESS),
      hash,
    });
    expect(back.email).not.toBe(created.email);
    expect(await storedRow(get(), token, 'default', 'cron, timezone, active, next_run_at')).toEqual({
      cron: null,
      timezone: null,
      active: 0,
      next_run_at: null,
    });
  });

  it('PATCH schedule on a mailbox webhook makes it scheduled when cron and time zone are given', async () => {
    ok(await api.create({ url, format: 'slack' }));
    const body = ok(await api.patch('default', { schedule: { cron: '0 0 1 * *', timezone: 'UTC' } }));
    expect(Object.keys(body)).toEqual(SCHEDULED_KEYS);
    expect(body.schedule).toStrictEqual({
      cron: '0 0 1 * *',
      timezone: 'UTC',
      active: true,
      nextRunAt: '2026-07-01T00:00:00.000Z',
    });
    expect(await storedRow(get(), token, 'default', 'mailbox')).toEqual({ mailbox: null });
  });

  it('PATCH rotateSecret returns a new signing secret once and stores it', async () => {
    const created = ok(await api.create({ url }));
    const rotated = ok(await api.patch('default', { rotateSecret: true }));
    expect(Object.keys(rotated)).toEqual([...MAILBOX_KEYS, 'signingSecret']);
    expect(rotated.signingSecret).toMatch(SIGNING_SECRET);
    expect(rotated.signingSecret).not.toBe(created.signingSecret);
    expect(await storedRow(get(), token, 'default', 'signing_secret')).toEqual({
      signing_secret: rotated.signingSecret,
    });
    expect(ok(await api.patch('default', { rotateSecret: false }))).not.toHaveProperty('signingSecret');
    expect(ok(await api.patch('default', { url }))).not.toHaveProperty('signingSecret');
  });

  it('DELETE answers plain OK and the webhook is gone', async () => {
    ok(await api.create({ webhookId: 'gone', url }));
    const res = await api.remove('gone');
    expect([res.statusCode, res.body, res.headers['content-type'], res.headers['x-cost']]).toEqual([
      200,
      'OK',
      PLAIN,
      '1',
    ]);
    expectError(await api.get('gone'), 404, 'Webhook not found');
    expectError(await api.remove('gone'), 404, 'Webhook not found');
    expect(ok(await api.list()).webhooks).toEqual([]);
  });

  it('keeps wallets apart: another token neither sees nor changes a webhook, and may use the same id', async () => {
    ok(await api.create({ webhookId: 'shared', url }));
    const otherToken = await get().createToken(100);
    const other = webhookApi(get(), otherToken);
    expect(ok(await other.list()).webhooks).toEqual([]);
    expectError(await other.get('shared'), 404, 'Webhook not found');
    expectError(await other.patch('shared', { url }), 404, 'Webhook not found');
    expectError(await other.remove('shared'), 404, 'Webhook not found');
    expect(ok(await other.create({ webhookId: 'shared', url })).hash).toBe(sha256Hex(otherToken));
    expect(ok(await api.get('shared')).hash).toBe(hash);
  });

  it('charges 1 credit for every call, logged under category webhook with the request path', async () => {
    const calls = [
      () => api.create({ webhookId: 'w', url }),
      () => api.list(),
      () => api.get('w'),
      () => api.put('w', { url }),
      () => api.patch('w', { url }),
      () => api.remove('w'),
      () => api.get('w'),
    ];
    let balance = 1000;
    for (const call of calls) {
      const res = await call();
      balance -= 1;
      expect(res.headers).toMatchObject({ 'x-cost': '1', 'x-balance': String(balance) });
    }
    const logs = ok(await api.logs('webhook', 20)).logs as Array<{
      method: string;
      path: string;
      endpoint: string;
      status_code: number;
      cost: number;
    }>;
    expect(logs.map((entry) => `${entry.method} ${entry.path} ${entry.status_code} ${entry.cost}`).reverse()).toEqual([
      'POST /webhook 200 1',
      'GET /webhook 200 1',
      'GET /webhook/w 200 1',
      'PUT /webhook/w 200 1',
      'PATCH /webhook/w 200 1',
      'DELETE /webhook/w 200 1',
      'GET /webhook/w 404 1',
    ]);
    expect(new Set(logs.map((entry) => entry.endpoint))).toEqual(new Set(['webhook']));
  });
});
