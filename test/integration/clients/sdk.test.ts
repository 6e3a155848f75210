import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import {
  BadRequest,
  Coinop,
  CoinopError,
  Conflict,
  ConnectionFailed,
  Forbidden,
  InsufficientCredits,
  InvalidInput,
  NotFound,
  RateLimited,
  ServerError,
  ServiceUnavailable,
  Unauthorized,
  tokenHash,
} from '../../../clients/typescript/src/index.js';
import { ADMIN_TOKEN, useLiveService } from './live-service.js';

/** The rejection of `call`, which must be a CoinopError. */
async function refusal(call: Promise<unknown>): Promise<CoinopError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CoinopError);
  return error as CoinopError;
}

describeEachStore('the TypeScript SDK against a live instance', (kind) => {
  const service = useLiveService(kind);
  let client: Coinop;
  let token: string;
  beforeAll(async () => {
    token = await service.app().createToken(1000);
    client = new Coinop({ baseUrl: service.url(), token, adminToken: ADMIN_TOKEN });
  });

  it('creates a token over POST /token, then the rate limit refuses the next one as RateLimited with retryAfter', async () => {
    const anonymous = new Coinop({ baseUrl: service.url() });
    const created = await anonymous.tokenNew();
    expect(created.data).toMatch(/^\S{10,}$/);
    const info = await new Coinop({ baseUrl: service.url(), token: created.data }).tokenInfo();
    expect(info).toMatchObject({ data: { wallet: 99, hash: tokenHash(created.data) }, cost: 1, balance: 99 });

    const limited = await refusal(anonymous.tokenNew());
    expect(limited).toBeInstanceOf(RateLimited);
    expect(limited).toMatchObject({ status: 429, body: 'Too Many Requests' });
    expect(limited.retryAfter).toBeGreaterThanOrEqual(1);
  });

  it('sets, reads and deletes a key, each result carrying cost and balance', async () => {
    const before = (await client.tokenInfo()).balance ?? 0;
    expect(await client.kvSet('sdk', 'greeting', 'hello\nworld', { ttl: 60 })).toStrictEqual({
      data: 'OK',
      cost: 1,
      balance: before - 1,
    });
    expect(await client.kvGet('sdk', 'greeting')).toStrictEqual({ data: 'hello\nworld', cost: 1, balance: before - 2 });
    expect(await client.kvDelete('sdk', 'greeting')).toStrictEqual({ data: 'OK', cost: 1, balance: before - 3 });

    const missing = await refusal(client.kvGet('sdk', 'greeting'));
    expect(missing).toBeInstanceOf(NotFound);
    expect(missing).toMatchObject({ status: 404, body: 'Key Not Found', cost: 1, balance: before - 4 });
  });

  it("lists a bucket's keys a page at a time with kvList, the cursor leading to the following page", async () => {
    for (const key of ['b', 'a', 'c']) await client.kvSet('sdk-list', key, 'vé', { ttl: 60 });
    const before = (await client.tokenInfo()).balance ?? 0;
    const first = await client.kvList('sdk-list', { limit: 2 });
    expect(first).toMatchObject({
      data: {
        keys: [
          { key: 'a', size: 3 },
          { key: 'b', size: 3 },
        ],
        cursor: 'b',
      },
      cost: 1,
      balance: before - 1,
    });
    expect(Date.parse(first.data.keys[0]?.expiresAt ?? '')).toBeGreaterThan(Date.now());
    const rest = await client.kvList('sdk-list', { limit: 2, cursor: first.data.cursor ?? undefined });
    expect(rest.data).toStrictEqual({
      keys: [{ key: 'c', expiresAt: expect.any(String) as unknown, size: 3 }],
      cursor: null,
    });
    expect((await client.kvList('sdk-list', { prefix: 'b' })).data.keys.map((entry) => entry.key)).toEqual(['b']);
    // Refused before sending, with the service's rule and wording: nothing charged.
    const bad = await refusal(client.kvList('sdk-list', { limit: 0 }));
    expect(bad).toBeInstanceOf(BadRequest);
    expect(bad).toMatchObject({ status: 400, body: 'Invalid limit: must be an integer from 1 to 100', cost: 0 });
  });

  it("lists the wallet's buckets a page at a time with kvBuckets, with their live keys and bytes", async () => {
    const own = new Coinop({ baseUrl: service.url(), token: await service.app().createToken(20) });
    for (const [bucket, key] of [
      ['sdk-b2', 'k'],
      ['sdk-b1', 'k1'],
      ['sdk-b1', 'k2'],
    ] as const)
      await own.kvSet(bucket, key, 'xyz');
    const first = await own.kvBuckets({ limit: 1 });
    expect(first).toStrictEqual({
      data: { buckets: [{ bucket: 'sdk-b1', keys: 2, size: 6, capped: false }], cursor: 'sdk-b1' },
      cost: 1,
      balance: 16,
    });
    const rest = await own.kvBuckets({ cursor: first.data.cursor ?? undefined });
    expect(rest.data).toStrictEqual({ buckets: [{ bucket: 'sdk-b2', keys: 1, size: 3, capped: false }], cursor: null });
    expect((await own.kvBuckets({ prefix: 'sdk-b2' })).data.buckets.map((entry) => entry.bucket)).toEqual(['sdk-b2']);
    const bad = await refusal(own.kvBuckets({ limit: 101 }));
    expect(bad).toMatchObject({ status: 400, body: 'Invalid limit: must be an integer from 1 to 100', cost: 0 });
    expect((await own.tokenInfo()).balance).toBe(13);
  });

  it('turns 400, 401 and 402 into BadRequest, Unauthorized and InsufficientCredits; input the service would refuse is refused unsent', async () => {
    const unsent = await refusal(client.kvSet('reserved-bucket', 'k', 'v'));
    expect(unsent).toBeInstanceOf(InvalidInput);
    expect(unsent).toBeInstanceOf(BadRequest);
    expect(unsent).toMatchObject({
      status: 400,
      body: 'Invalid bucket: must not start with reserved-',
      cost: 0,
      balance: undefined,
    });
    // Only the service knows which addresses it calls: a private callback is its 400, charged as client errors are.
    const bad = await refusal(
      client.webhookCreate({ url: 'https://10.1.2.3/hook', schedule: { cron: '0 3 * * *', timezone: 'UTC' } }),
    );
    expect(bad).toBeInstanceOf(BadRequest);
    expect(bad).not.toBeInstanceOf(InvalidInput);
    expect(bad).toMatchObject({ status: 400, body: 'Invalid url: refused address', cost: 1 });

    // URL metadata answers its failures as JSON: the message says the error, the body keeps the answer as it came.
    const page = await refusal(client.urlMetadata({ url: 'https://10.1.2.3/page' }));
    expect(page).toBeInstanceOf(BadRequest);
    expect(JSON.parse(page.body)).toStrictEqual({ success: false, error: page.message.replace(/^400: /, '') });
    expect(page.message).toMatch(/^400: Invalid url: refused address/);

    const stranger = await refusal(
      new Coinop({ baseUrl: service.url(), token: 'not-a-token-of-this-service' }).kvGet('sdk', 'k'),
    );
    expect(stranger).toBeInstanceOf(Unauthorized);
    expect(stranger).toMatchObject({ status: 401, body: 'Unauthorized', balance: undefined });

    const broke = new Coinop({ baseUrl: service.url(), token: await service.app().createToken(0) });
    const refused = await refusal(broke.kvGet('sdk', 'k'));
    expect(refused).toBeInstanceOf(InsufficientCredits);
    expect(refused).toMatchObject({ status: 402, body: 'Insufficient credits', cost: 0, balance: 0 });
    expect(refused.message).toBe('402: Insufficient credits: the call costs 1 credit and the wallet holds 0 credits');
  });

  it('manages a scheduled webhook: create, list, get, update, test (delivered to a loopback receiver), deliveries, delete', async () => {
    service.outbound.receiver().respondWith({ status: 200, body: 'ok' });
    const url = service.outbound.url('/sdk-hook');
    const created = await client.webhookCreate({
      webhookId: 'sdk-nightly',
      url,
      schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' },
    });
    expect(created).toMatchObject({
      data: { webhookId: 'sdk-nightly', webhook: url, schedule: { cron: '0 3 * * *', active: true } },
      cost: 1,
    });
    expect((await client.webhookList()).data.webhooks.map((webhook) => webhook.webhookId)).toContain('sdk-nightly');
    expect((await client.webhookGet('sdk-nightly')).data).toMatchObject({ webhookId: 'sdk-nightly' });
    expect((await client.webhookUpdate('sdk-nightly', { schedule: { active: false } })).data).toMatchObject({
      schedule: { active: false },
    });
    expect(
      (await client.webhookReplace('sdk-nightly', { url, schedule: { cron: '0 4 * * *', timezone: 'UTC' } })).data,
    ).toMatchObject({
      schedule: { cron: '0 4 * * *', timezone: 'UTC' },
    });

    const tested = await client.webhookTest('sdk-nightly');
    expect(tested).toMatchObject({ data: { success: true }, cost: 1 });
    expect(service.outbound.requestsTo('/sdk-hook')).toHaveLength(1);
    const deliveries = await client.webhookDeliveries('sdk-nightly');
    expect(deliveries.data.deliveries).toMatchObject([{ trigger: 'test', status: 'success' }]);
    const delivery = await client.webhookDelivery('sdk-nightly', deliveries.data.deliveries[0]!.id);
    expect(delivery.data).toMatchObject({ id: deliveries.data.deliveries[0]!.id });

    expect((await client.webhookDelete('sdk-nightly')).data).toBe('OK');
    const gone = await refusal(client.webhookGet('sdk-nightly'));
    expect(gone).toBeInstanceOf(NotFound);
    expect(gone.body).toBe('Webhook not found');
  });

  it('refuses unsent, in the service own words, every DNS lookup body the service would refuse and charge 5 for', async () => {
    const own = new Coinop({ baseUrl: service.url(), token: await service.app().createToken(100) });
    const witness = await service.app().createToken(1000);
    const bodies: readonly Record<string, unknown>[] = [
      { domains: ['example.test'], timeout: 500 },
      { domains: ['example.test'], maxRetries: 11 },
      { domains: ['example.test'], retryDelay: 1.5 },
      { domains: ['example.test'], recordTypes: ['A', 'XYZ'] },
      { domains: ['example.test'], recordTypes: [] },
      { domains: ['example.test'], foo: 1 },
      { domains: ['example.test'], checkPropagation: 'yes' },
      { domains: ['example.test'], propagationServers: '8.8.8.8' },
      { domains: ['example.test'], propagationServers: ['8.8.8.8:99999'] },
      { domains: ['localhost'] },
    ];
    for (const body of bodies) {
      const served = await service.app().inject({
        method: 'POST',
        url: '/dns-lookup',
        headers: { 'x-token': witness, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect([served.statusCode, served.headers['x-cost']], served.body).toEqual([400, '5']);
      const bad = await refusal(own.dnsLookup(body as Parameters<Coinop['dnsLookup']>[0]));
      expect(bad, JSON.stringify(body)).toMatchObject({ status: 400, body: served.body, cost: 0 });
    }
    expect((await own.tokenInfo()).balance).toBe(99);
  });

  it('refuses unsent a webhook body with an unknown field or a mailbox field beside a schedule, and an unknown summary level', async () => {
    const own = new Coinop({ baseUrl: service.url(), token: await service.app().createToken(100) });
    const witness = await service.app().createToken(1000);
    const schedule = { cron: '0 9 * * *', timezone: 'UTC' };
    const calls: ReadonlyArray<readonly [string, Record<string, unknown>, (body: never) => Promise<unknown>]> = [
      ['/webhook', { url: 'https://hooks.example.com/h', bogus: 1 }, (body) => own.webhookCreate(body)],
      [
        '/webhook',
        { url: 'https://hooks.example.com/h', schedule, format: 'slack' },
        (body) => own.webhookCreate(body),
      ],
      ['/url-to-metadata', { url: 'https://example.com/', aiSummary: 'huge' }, (body) => own.urlMetadata(body)],
    ];
    for (const [path, body, send] of calls) {
      const served = await service.app().inject({
        method: 'POST',
        url: path,
        headers: { 'x-token': witness, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(served.statusCode, served.body).toBe(400);
      expect(Number(served.headers['x-cost'])).toBeGreaterThan(0);
      const wording = served.body.startsWith('{') ? (JSON.parse(served.body) as { error: string }).error : served.body;
      const bad = await refusal(send(body as never));
      expect(bad, JSON.stringify(body)).toMatchObject({ status: 400, cost: 0 });
      expect(bad.message).toContain(wording);
    }
    expect((await own.tokenInfo()).balance).toBe(99);
  });

  it('looks up DNS (5 credits), reads URL metadata (55) and the caller IP (1)', async () => {
    const lookup = await client.dnsLookup({
      domains: ['example.test'],
      recordTypes: ['A'],
      timeout: 1000,
      maxRetries: 0,
      enableSslInspection: false,
    });
    expect(lookup.cost).toBe(5);
    expect(lookup.data.results[0]?.lookupResult).toMatchObject({ records: { A: [{ address: '192.0.2.10' }] } });

    service.outbound.receiver().respondWith((request) =>
      request.path === '/page'
        ? {
            status: 200,
            headers: { 'content-type': 'text/html; charset=utf-8' },
            body: '<html><head><title>SDK page</title></head><body>hi</body></html>',
          }
        : { status: 404, body: 'none' },
    );
    const metadata = await client.urlMetadata({ url: service.outbound.url('/page') });
    expect(metadata).toMatchObject({ data: { success: true, data: { seo: { title: 'SDK page' } } }, cost: 55 });

    const ip = await client.myIp();
    expect(ip.cost).toBe(1);
    expect(ip.data.ip).toBe('127.0.0.1');
  });

  it('reads the logs for free, filtered by category', async () => {
    await client.kvSet('sdk', 'logged', 'v');
    const logs = await client.logs({ n: 2, type: 'kv' });
    expect(logs.cost).toBe(0);
    expect(logs.data.n).toBe(2);
    expect(logs.data.logs.every((entry) => entry.endpoint === 'kv')).toBe(true);
    expect(logs.data.logs[0]).toMatchObject({ method: 'POST', path: '/kv/sdk/logged', status_code: 200, cost: 1 });
  });

  it('reads and credits a wallet through the operator API; a wrong operator token is Forbidden', async () => {
    const owner = await service.app().createToken(10);
    expect((await client.adminWallet(owner)).data).toMatchObject({ hash: tokenHash(owner), wallet: 10 });
    expect((await client.adminCredit(tokenHash(owner), 40, 'support')).data).toStrictEqual({
      hash: tokenHash(owner),
      wallet: 50,
    });
    // A hash in uppercase is a hash (the service takes either case), never taken for a token and hashed again.
    expect((await client.adminWallet(tokenHash(owner).toUpperCase())).data).toMatchObject({ wallet: 50 });
    const forbidden = await refusal(
      new Coinop({ baseUrl: service.url(), adminToken: 'wrong-admin-token-0000' }).adminWallet(owner),
    );
    expect(forbidden).toBeInstanceOf(Forbidden);
    expect(forbidden).toMatchObject({ status: 403, body: 'Forbidden' });
    const unknown = await refusal(client.adminWallet('f'.repeat(64)));
    expect(unknown).toBeInstanceOf(NotFound);
  });

  it("sums the wallet's spending per day and category with spend, for free; days beyond the log's 7 are BadRequest", async () => {
    const own = new Coinop({ baseUrl: service.url(), token: await service.app().createToken(20) });
    await own.kvSet('sdk-spend', 'a', 'v');
    await own.kvSet('sdk-spend', 'b', 'v');
    await own.myIp();
    const spent = await own.spend({ days: 1 });
    const today = new Date(Date.parse(spent.data.to) - (Date.parse(spent.data.to) % 86_400_000)).toISOString();
    expect(spent).toStrictEqual({
      data: {
        by: 'day',
        from: today,
        to: spent.data.to,
        series: [
          { start: today, endpoint: 'kv', credits: 2, calls: 2 },
          { start: today, endpoint: 'myip', credits: 1, calls: 1 },
        ],
      },
      cost: 0,
      balance: 17,
    });
    const hourly = await own.spend({ by: 'hour' });
    expect(hourly.data.by).toBe('hour');
    const kvCredits = hourly.data.series
      .filter((period) => period.endpoint === 'kv')
      .reduce((sum, period) => sum + period.credits, 0);
    expect(kvCredits).toBe(2);

    const bad = await refusal(own.spend({ days: 8 }));
    expect(bad).toBeInstanceOf(BadRequest);
    expect(bad).toMatchObject({
      status: 400,
      body: 'Invalid days: must be an integer from 1 to 7',
      cost: 0,
      balance: 17,
    });
  });

  it('asks for a recharge link; without Stripe configured the 501 is a ServerError, for free', async () => {
    const own = new Coinop({ baseUrl: service.url(), token: await service.app().createToken(5) });
    const unconfigured = await refusal(own.rechargeLink('1'));
    expect(unconfigured).toBeInstanceOf(ServerError);
    expect(unconfigured).toMatchObject({ status: 501, body: 'Recharge is not configured', cost: 0, balance: 5 });
  });

  it('lists every wallet a page at a time with adminWallets, the cursor leading to the following page; a wrong operator token is Forbidden', async () => {
    // Balances above any other wallet of this suite: the first two of the balance order.
    const richest = await service.app().createToken(500_000_002);
    const second = await service.app().createToken(500_000_001);
    const first = await client.adminWallets({ sort: 'balance', limit: 1 });
    expect(first).toStrictEqual({
      data: {
        wallets: [
          {
            hash: tokenHash(richest),
            wallet: 500_000_002,
            created: expect.any(String) as unknown,
            lastUsed: expect.any(String) as unknown,
          },
        ],
        cursor: expect.any(String) as unknown,
      },
      cost: 0,
      balance: undefined,
    });
    const next = await client.adminWallets({ sort: 'balance', limit: 1, cursor: first.data.cursor ?? undefined });
    expect(next.data.wallets.map((wallet) => [wallet.hash, wallet.wallet])).toStrictEqual([
      [tokenHash(second), 500_000_001],
    ]);
    const all = await client.adminWallets({ limit: 100 });
    expect(all.data.wallets.map((wallet) => wallet.hash)).toEqual(
      expect.arrayContaining([tokenHash(richest), tokenHash(second), tokenHash(token)]),
    );
    expect(all.data.cursor).toBeNull();

    const forbidden = await refusal(
      new Coinop({ baseUrl: service.url(), adminToken: 'wrong-admin-token-0000' }).adminWallets(),
    );
    expect(forbidden).toBeInstanceOf(Forbidden);
    expect(forbidden).toMatchObject({ status: 403, body: 'Forbidden', cost: 0, balance: undefined });
    const bad = await refusal(client.adminWallets({ limit: 0 }));
    expect(bad).toBeInstanceOf(BadRequest);
    expect(bad.body).toBe('Invalid limit: must be an integer from 1 to 100');
  });

  it("reads a wallet's log a page at a time with adminWalletLogs, filtered by category; an unknown wallet is NotFound", async () => {
    const owner = await service.app().createToken(10);
    await new Coinop({ baseUrl: service.url(), token: owner }).kvSet('sdk-audit', 'k', 'v');
    await client.adminCredit(owner, 5, 'goodwill');
    const newest = await client.adminWalletLogs(owner, { limit: 1 });
    expect(newest).toMatchObject({
      data: {
        logs: [
          {
            method: 'POST',
            path: `/manage/wallets/${tokenHash(owner)}/credit`,
            endpoint: 'manage',
            status_code: 200,
            cost: 0,
            balance: 14,
            reason: 'goodwill',
          },
        ],
        cursor: expect.any(String) as unknown,
      },
      cost: 0,
      balance: undefined,
    });
    const older = await client.adminWalletLogs(tokenHash(owner), { limit: 1, cursor: newest.data.cursor ?? undefined });
    expect(older.data.logs).toMatchObject([
      { method: 'POST', path: '/kv/sdk-audit/k', endpoint: 'kv', cost: 1, balance: 9 },
    ]);
    const kv = await client.adminWalletLogs(owner, { type: 'kv' });
    expect(kv.data.logs.map((entry) => entry.path)).toStrictEqual(['/kv/sdk-audit/k']);
    expect(kv.data.cursor).toBeNull();

    const unknown = await refusal(client.adminWalletLogs('f'.repeat(64)));
    expect(unknown).toBeInstanceOf(NotFound);
    expect(unknown).toMatchObject({ status: 404, body: 'Not Found' });
  });

  it('counts wallets, credits in circulation and credits spent per day with adminStats; days beyond 90 are BadRequest', async () => {
    const before = await client.adminStats({ days: 2 });
    expect(before).toMatchObject({ cost: 0, balance: undefined });
    expect(before.data.spentPerDay).toHaveLength(2);
    const own = new Coinop({ baseUrl: service.url(), token: await service.app().createToken(100) });
    for (const key of ['a', 'b', 'c']) await own.kvSet('sdk-stats', key, 'v');
    const after = await client.adminStats({ days: 2 });
    const spentIn = (stats: typeof after.data): number => stats.spentPerDay.reduce((sum, day) => sum + day.credits, 0);
    expect(after.data.wallets).toBe(before.data.wallets + 1);
    expect(after.data.credits).toBe(before.data.credits + 97);
    expect(spentIn(after.data) - spentIn(before.data)).toBe(3);
    expect(after.data.spentPerDay.at(-1)?.day).toBe(
      new Date(service.app().deps.clock.now()).toISOString().slice(0, 10),
    );
    expect((await client.adminStats()).data.spentPerDay).toHaveLength(7);

    const bad = await refusal(client.adminStats({ days: 91 }));
    expect(bad).toBeInstanceOf(BadRequest);
    expect(bad).toMatchObject({ status: 400, body: 'Invalid days: must be an integer from 1 to 90' });
  });

  it('debits a wallet with adminDebit, the reason kept in its log; a debit beyond the balance is a Conflict that changes nothing', async () => {
    const owner = await service.app().createToken(10);
    expect(await client.adminDebit(owner, 4, 'refund')).toStrictEqual({
      data: { hash: tokenHash(owner), wallet: 6 },
      cost: 0,
      balance: undefined,
    });
    expect((await client.adminWallet(owner)).data.wallet).toBe(6);
    expect((await client.adminWalletLogs(owner, { type: 'manage', limit: 2 })).data.logs[1]).toMatchObject({
      path: `/manage/wallets/${tokenHash(owner)}/debit`,
      balance: 6,
      reason: 'refund',
    });

    const tooMuch = await refusal(client.adminDebit(tokenHash(owner), 7));
    expect(tooMuch).toBeInstanceOf(Conflict);
    expect(tooMuch).toMatchObject({ status: 409, body: 'Balance too low', cost: 0, balance: undefined });
    expect((await client.adminWallet(owner)).data.wallet).toBe(6);
  });

  it('deletes a wallet with adminDelete: its token is Unauthorized from then on, and deleting it again is NotFound', async () => {
    const owner = await service.app().createToken(10);
    expect(await client.adminDelete(owner)).toStrictEqual({ data: 'OK', cost: 0, balance: undefined });
    expect(await refusal(new Coinop({ baseUrl: service.url(), token: owner }).tokenInfo())).toBeInstanceOf(
      Unauthorized,
    );
    expect(await refusal(client.adminWallet(owner))).toBeInstanceOf(NotFound);

    const again = await refusal(client.adminDelete(tokenHash(owner)));
    expect(again).toBeInstanceOf(NotFound);
    expect(again).toMatchObject({ status: 404, body: 'Not Found' });
  });
});

describeEachStore(
  'the SDK asking for a recharge link from an instance selling through Stripe Payment Links',
  (kind) => {
    const links = { '1': 'https://buy.stripe.com/test_sdk_1m', '3': 'https://buy.stripe.com/test_sdk_3m' };
    const get = useTestApp(kind, {
      env: {
        STRIPE_WEBHOOK_SECRET: 'whsec_sdk_test',
        STRIPE_PAYMENT_LINK_1M: links['1'],
        STRIPE_PAYMENT_LINK_3M: links['3'],
      },
    });
    let url: string;
    beforeAll(async () => {
      await get().app.listen({ port: 0, host: '127.0.0.1' });
      url = `http://127.0.0.1:${(get().app.server.address() as AddressInfo).port}`;
    });

    it.each(['1', '3'] as const)(
      'answers the link for %s million credits as text with the wallet hash, for free',
      async (amount) => {
        const token = await get().createToken(5);
        const link = await new Coinop({ baseUrl: url, token }).rechargeLink(amount);
        expect(link).toStrictEqual({
          data: `${links[amount]}?client_reference_id=${tokenHash(token)}`,
          cost: 0,
          balance: 5,
        });
      },
    );

    it('refuses a stranger as Unauthorized', async () => {
      const stranger = await refusal(
        new Coinop({ baseUrl: url, token: 'not-a-token-of-this-service' }).rechargeLink('1'),
      );
      expect(stranger).toBeInstanceOf(Unauthorized);
      expect(stranger).toMatchObject({ status: 401, body: 'Unauthorized' });
    });
  },
);

describe('the SDK when no service answers, or it is away', () => {
  it('a 503 with retry-after becomes ServiceUnavailable carrying retryAfter, cost and balance', async () => {
    // A loopback peer answering as an instance whose database is away does (its exact headers and body).
    const peer = createServer((_request, response) => {
      response.writeHead(503, {
        'content-type': 'text/plain; charset=utf-8',
        'retry-after': '2',
        'x-cost': '0',
        'x-balance': '41',
      });
      response.end('Service Unavailable');
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    try {
      const client = new Coinop({
        baseUrl: `http://127.0.0.1:${(peer.address() as AddressInfo).port}`,
        token: 'a-token-of-some-length',
      });
      const away = await refusal(client.kvGet('b', 'k'));
      expect(away).toBeInstanceOf(ServiceUnavailable);
      expect(away).toMatchObject({ status: 503, body: 'Service Unavailable', retryAfter: 2, cost: 0, balance: 41 });
    } finally {
      await new Promise((resolve) => peer.close(resolve));
    }
  });

  it('a refused connection becomes ConnectionFailed with status 0', async () => {
    const peer = createServer();
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    const port = (peer.address() as AddressInfo).port;
    await new Promise((resolve) => peer.close(resolve));
    const failed = await refusal(
      new Coinop({ baseUrl: `http://127.0.0.1:${port}`, token: 'a-token-of-some-length' }).myIp(),
    );
    expect(failed).toBeInstanceOf(ConnectionFailed);
    expect(failed.status).toBe(0);
  });
});
