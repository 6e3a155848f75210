import { describe, expect, it } from 'vitest';
import type { HTTPMethods } from 'fastify';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { balanceOf } from '../../helpers/app.js';

/**
 * The shared auth and metering suite: every metered route runs the same checks.
 * A new metered route must be added to ROUTES (the coverage test reads /openapi.json).
 */
interface Call {
  readonly method: HTTPMethods;
  readonly url: string;
  readonly payload?: string;
  readonly contentType?: string;
}
interface MeteredRoute {
  /** Method and path template as the OpenAPI document writes them. */
  readonly name: string;
  readonly cost: number;
  readonly category: string;
  /** A well-formed call and the status it answers on a fresh wallet. */
  readonly ok: Call & { readonly status: number; readonly error?: string };
  /** A call refused by validation, and its 400 body. */
  readonly clientError?: Call & { readonly body: string };
  /** The log `path` when it is not the request URL (deliveries log the webhookId). */
  readonly logPath?: string;
  /**
   * For routes that charge more up front than the `ok` call finally costs (refunds by status): the balance
   * the charge checks start from (default 10), which is also exactly one up-front charge for the log check.
   */
  readonly credits?: number;
}

const JSON_TYPE = 'application/json';
const PLAIN = 'text/plain; charset=utf-8';
const TTL_RULE = 'Invalid ttl: must be an integer from 0 to 2592000';
const WEBHOOK_ID_RULE = 'Invalid webhookId: must be 1 to 30 characters from A-Z, a-z, 0-9, _ and -';
/** A public IP literal: saved without any DNS query, never contacted by these tests. */
const HOOK_BODY = '{"url":"https://93.184.215.14/hook"}';

const ROUTES: readonly MeteredRoute[] = [
  { name: 'GET /token', cost: 1, category: 'token', ok: { method: 'GET', url: '/token', status: 200 } },
  {
    name: 'GET /token/logs',
    cost: 0,
    category: 'token',
    ok: { method: 'GET', url: '/token/logs?n=3', status: 200 },
    clientError: { method: 'GET', url: '/token/logs?n=0', body: 'Invalid n: must be an integer from 1 to 100' },
  },
  {
    name: 'GET /token/spend',
    cost: 0,
    category: 'token',
    ok: { method: 'GET', url: '/token/spend?by=hour', status: 200 },
    clientError: { method: 'GET', url: '/token/spend?days=8', body: 'Invalid days: must be an integer from 1 to 7' },
  },
  {
    name: 'GET /token/settings',
    cost: 1,
    category: 'settings',
    ok: { method: 'GET', url: '/token/settings', status: 200 },
  },
  {
    name: 'PUT /token/settings',
    cost: 1,
    category: 'settings',
    ok: {
      method: 'PUT',
      url: '/token/settings',
      payload: '{"low_balance_threshold":5}',
      contentType: JSON_TYPE,
      status: 200,
    },
    clientError: {
      method: 'PUT',
      url: '/token/settings',
      payload: '{"colour":"red"}',
      contentType: JSON_TYPE,
      body: 'Unknown field: colour',
    },
  },
  {
    name: 'POST /kv/{bucket}/{key}',
    cost: 1,
    category: 'kv',
    ok: { method: 'POST', url: '/kv/b/k?ttl=60', payload: 'v', contentType: 'text/plain', status: 200 },
    clientError: { method: 'POST', url: '/kv/b/k?ttl=abc', payload: 'v', contentType: 'text/plain', body: TTL_RULE },
  },
  {
    name: 'GET /kv/{bucket}/{key}',
    cost: 1,
    category: 'kv',
    ok: { method: 'GET', url: '/kv/b/k', status: 404, error: 'Key Not Found' },
    clientError: { method: 'GET', url: '/kv/reserved-b/k', body: 'Invalid bucket: must not start with reserved-' },
  },
  {
    name: 'DELETE /kv/{bucket}/{key}',
    cost: 1,
    category: 'kv',
    ok: { method: 'DELETE', url: '/kv/b/k', status: 404, error: 'Key Not Found' },
    clientError: { method: 'DELETE', url: '/kv/b/k%00', body: 'Invalid key: must not contain control characters or /' },
  },
  {
    name: 'GET /kv/{bucket}',
    cost: 1,
    category: 'kv',
    ok: { method: 'GET', url: '/kv/b?prefix=k&limit=10', status: 200 },
    clientError: { method: 'GET', url: '/kv/b?limit=0', body: 'Invalid limit: must be an integer from 1 to 100' },
  },
  {
    name: 'GET /kv',
    cost: 1,
    category: 'kv',
    ok: { method: 'GET', url: '/kv?prefix=b&limit=10', status: 200 },
    clientError: { method: 'GET', url: '/kv?limit=101', body: 'Invalid limit: must be an integer from 1 to 100' },
  },
  {
    name: 'POST /dns-lookup',
    cost: 5,
    category: 'service',
    ok: {
      method: 'POST',
      url: '/dns-lookup',
      payload:
        '{"domains":["example.com"],"recordTypes":["A"],"timeout":1000,"maxRetries":0,"performReverseLookup":false,"enableEnrichment":false,"enableSslInspection":false}',
      contentType: JSON_TYPE,
      status: 200,
    },
    clientError: {
      method: 'POST',
      url: '/dns-lookup',
      payload: '{"domains":[]}',
      contentType: JSON_TYPE,
      body: 'Invalid domains: must list 1 to 10 domain names or IP addresses',
    },
  },
  {
    name: 'POST /webhook',
    cost: 1,
    category: 'webhook',
    ok: { method: 'POST', url: '/webhook', payload: HOOK_BODY, contentType: JSON_TYPE, status: 200 },
    clientError: {
      method: 'POST',
      url: '/webhook',
      payload: '{"url":"https://93.184.215.14/hook","colour":"red"}',
      contentType: JSON_TYPE,
      body: 'Unknown field: colour',
    },
  },
  { name: 'GET /webhook', cost: 1, category: 'webhook', ok: { method: 'GET', url: '/webhook', status: 200 } },
  {
    name: 'GET /webhook/{webhookId}',
    cost: 1,
    category: 'webhook',
    ok: { method: 'GET', url: '/webhook/nope', status: 404, error: 'Webhook not found' },
    clientError: { method: 'GET', url: '/webhook/a.b', body: WEBHOOK_ID_RULE },
  },
  {
    name: 'PUT /webhook/{webhookId}',
    cost: 1,
    category: 'webhook',
    ok: {
      method: 'PUT',
      url: '/webhook/nope',
      payload: HOOK_BODY,
      contentType: JSON_TYPE,
      status: 404,
      error: 'Webhook not found',
    },
    clientError: {
      method: 'PUT',
      url: '/webhook/nope',
      payload: '{"url":"http://93.184.215.14/hook"}',
      contentType: JSON_TYPE,
      body: 'Invalid url: must be an https URL',
    },
  },
  {
    name: 'PATCH /webhook/{webhookId}',
    cost: 1,
    category: 'webhook',
    ok: {
      method: 'PATCH',
      url: '/webhook/nope',
      payload: '{}',
      contentType: JSON_TYPE,
      status: 404,
      error: 'Webhook not found',
    },
    clientError: {
      method: 'PATCH',
      url: '/webhook/nope',
      payload: '{"webhookId":"x"}',
      contentType: JSON_TYPE,
      body: 'Unknown field: webhookId',
    },
  },
  {
    name: 'DELETE /webhook/{webhookId}',
    cost: 1,
    category: 'webhook',
    ok: { method: 'DELETE', url: '/webhook/nope', status: 404, error: 'Webhook not found' },
    clientError: { method: 'DELETE', url: '/webhook/a.b', body: WEBHOOK_ID_RULE },
  },
  {
    name: 'POST /webhook/{webhookId}/test',
    cost: 1,
    category: 'webhook-delivery',
    logPath: 'nope',
    ok: { method: 'POST', url: '/webhook/nope/test', status: 404, error: 'Webhook not found' },
  },
  {
    name: 'GET /webhook/{webhookId}/deliveries',
    cost: 0,
    category: 'webhook',
    ok: { method: 'GET', url: '/webhook/nope/deliveries', status: 404, error: 'Webhook not found' },
    clientError: {
      method: 'GET',
      url: '/webhook/nope/deliveries?n=0',
      body: 'Invalid n: must be an integer from 1 to 100',
    },
  },
  {
    name: 'GET /webhook/{webhookId}/deliveries/{deliveryId}',
    cost: 0,
    category: 'webhook',
    ok: { method: 'GET', url: '/webhook/nope/deliveries/msg_1', status: 404, error: 'Webhook not found' },
    clientError: { method: 'GET', url: '/webhook/a.b/deliveries/msg_1', body: WEBHOOK_ID_RULE },
  },
  {
    // Costs what the delivery cost; a refusal (here: no such webhook) costs 1, like the other webhook routes.
    name: 'POST /webhook/{webhookId}/deliveries/{deliveryId}/redeliver',
    cost: 1,
    category: 'webhook-delivery',
    logPath: 'nope',
    ok: { method: 'POST', url: '/webhook/nope/deliveries/msg_1/redeliver', status: 404, error: 'Webhook not found' },
  },
  {
    // Charged 55 up front; a refused address is a client error, settled at 1 (its answer is JSON, tested in test/integration/metadata).
    name: 'POST /url-to-metadata',
    cost: 1,
    credits: 55,
    category: 'url-to-metadata',
    ok: {
      method: 'POST',
      url: '/url-to-metadata',
      payload: '{"url":"http://10.1.2.3/"}',
      contentType: JSON_TYPE,
      status: 400,
      error: 'Invalid url: refused address (not a public address)',
    },
  },
  { name: 'GET /myip', cost: 1, category: 'myip', ok: { method: 'GET', url: '/myip', status: 200 } },
  {
    name: 'GET /recharge',
    cost: 0,
    category: 'service',
    ok: { method: 'GET', url: '/recharge', status: 501, error: 'Recharge is not configured' },
    clientError: { method: 'GET', url: '/recharge?amount=2', body: 'Invalid amount: must be 1 or 3' },
  },
];

function send(t: TestApp, call: Call, token?: string) {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers['x-token'] = token;
  if (call.contentType !== undefined) headers['content-type'] = call.contentType;
  return t.inject({
    method: call.method,
    url: call.url,
    headers,
    ...(call.payload === undefined ? {} : { payload: call.payload }),
  });
}

function expectUnauthorized(res: Awaited<ReturnType<typeof send>>) {
  expect(res.statusCode).toBe(401);
  expect(res.headers['content-type']).toBe(PLAIN);
  expect(res.body).toBe('Unauthorized');
  expect(res.headers['x-cost']).toBeUndefined();
  expect(res.headers['x-balance']).toBeUndefined();
}

describeEachStore('auth and metering of every metered route', (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock });

  it('ROUTES lists exactly the token-authenticated operations of /openapi.json', async () => {
    const doc = (await get().inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>>;
    };
    const metered = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => op.security?.some((requirement) => 'TokenAuth' in requirement))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(metered.sort()).toEqual(ROUTES.map((route) => route.name).sort());
  });

  for (const route of ROUTES) {
    describe(route.name, () => {
      it('answers 401 Unauthorized without x-token, with no x-cost or x-balance', async () => {
        expectUnauthorized(await send(get(), route.ok));
      });

      it('answers 401 to a token shorter than 10 characters even when its wallet exists', async () => {
        const t = get();
        await t.deps.store.write((tx) =>
          tx.run(
            'INSERT INTO wallets (hash, balance, created_at, last_used_at) VALUES ($1, 5, 0, 0) ON CONFLICT (hash) DO NOTHING',
            [sha256Hex('nine-char')],
          ),
        );
        expectUnauthorized(await send(t, route.ok, 'nine-char'));
      });

      it('answers 401 to an unknown token, with no x-cost or x-balance', async () => {
        expectUnauthorized(await send(get(), route.ok, 'coin_unknown-token-of-the-right-length-000000000'));
      });

      it(`charges ${route.cost} and reports x-cost and the new x-balance`, async () => {
        const t = get();
        const start = route.credits ?? 10;
        const token = await t.createToken(start);
        const res = await send(t, route.ok, token);
        expect(res.statusCode).toBe(route.ok.status);
        expect(res.headers['x-cost']).toBe(String(route.cost));
        expect(res.headers['x-balance']).toBe(String(start - route.cost));
        expect(await balanceOf(t, token)).toBe(start - route.cost);
      });

      if (route.cost > 0) {
        it('answers 402 Insufficient credits on an empty wallet, charges nothing, x-cost 0 and x-balance 0', async () => {
          const t = get();
          const token = await t.createToken(0);
          const res = await send(t, route.ok, token);
          expect(res.statusCode).toBe(402);
          expect(res.headers['content-type']).toBe(PLAIN);
          expect(res.body).toBe('Insufficient credits');
          expect(res.headers['x-cost']).toBe('0');
          expect(res.headers['x-balance']).toBe('0');
          expect(await balanceOf(t, token)).toBe(0);
        });
      } else {
        it('serves an empty wallet for free, with x-cost 0 and x-balance 0', async () => {
          const token = await get().createToken(0);
          const res = await send(get(), route.ok, token);
          expect(res.statusCode).toBe(route.ok.status);
          expect(res.headers['x-cost']).toBe('0');
          expect(res.headers['x-balance']).toBe('0');
        });
      }

      const clientError = route.clientError;
      if (clientError !== undefined) {
        it(`still charges ${route.cost} for a request refused with 400`, async () => {
          const t = get();
          const token = await t.createToken(10);
          const res = await send(t, clientError, token);
          expect(res.statusCode).toBe(400);
          expect(res.headers['content-type']).toBe(PLAIN);
          expect(res.body).toBe(clientError.body);
          expect(res.headers['x-cost']).toBe(String(route.cost));
          expect(res.headers['x-balance']).toBe(String(10 - route.cost));
          expect(await balanceOf(t, token)).toBe(10 - route.cost);
        });
      }

      it('answers 401 once the wallet is deleted from the store after it was cached', async () => {
        const t = get();
        const token = await t.createToken(route.credits ?? 10);
        expect((await send(t, route.ok, token)).statusCode).toBe(route.ok.status);
        await t.deps.store.writeOne('DELETE FROM wallets WHERE hash = $1', [sha256Hex(token)]);
        expectUnauthorized(await send(t, route.ok, token));
        expectUnauthorized(await send(t, route.ok, token));
      });

      it('records every authenticated call (success, 400, 402) in the wallet log', async () => {
        const t = get();
        // Enough for the success and the 400, so the last call is refused with 402.
        const token = await t.createToken(route.credits ?? route.cost * (clientError ? 2 : 1));
        const calls = [route.ok, ...(clientError ? [clientError] : []), ...(route.cost > 0 ? [route.ok] : [])];
        const answers: Array<Awaited<ReturnType<typeof send>>> = [];
        for (const call of calls) answers.push(await send(t, call, token));
        const res = await t.inject({
          method: 'GET',
          url: `/token/logs?n=${calls.length}`,
          headers: { 'x-token': token },
        });
        const logs = res.json().logs as Array<Record<string, unknown>>;
        const expected = calls.map((call, i) => {
          const answer = answers[i] as (typeof answers)[number];
          const status = answer.statusCode;
          const error = status === 402 ? 'Insufficient credits' : ((call as { body?: string }).body ?? route.ok.error);
          return {
            id: expect.stringMatching(/^[0-9A-Za-z]{20}$/),
            method: call.method,
            path: route.logPath ?? call.url,
            endpoint: route.category,
            status_code: status,
            response_time_ms: expect.any(Number),
            ...(error === undefined ? {} : { error }),
            timestamp: new Date(clock.now()).toISOString(),
            expiration: new Date(clock.now() + 7 * 24 * 3600 * 1000).toISOString(),
            cost: Number(answer.headers['x-cost']),
            balance: Number(answer.headers['x-balance']),
          };
        });
        expect(logs).toStrictEqual(expected.reverse());
        if (route.cost > 0)
          expect(logs[0]).toMatchObject({
            status_code: 402,
            cost: 0,
            balance: route.credits === undefined ? 0 : route.credits - route.cost,
          });
        for (const entry of logs) expect(Number.isInteger(entry.response_time_ms)).toBe(true);
      });
    });
  }
});

describeEachStore('metering of requests that fail before validation', (kind) => {
  const get = useTestApp(kind);
  const settings = (token: string, payload: string) =>
    get().inject({
      method: 'PUT',
      url: '/token/settings',
      headers: { 'x-token': token, 'content-type': JSON_TYPE },
      payload,
    });

  it('charges 1 for malformed JSON and answers 400 with x-cost and x-balance', async () => {
    const token = await get().createToken(5);
    const res = await settings(token, '{"low_balance_threshold":');
    expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([400, 'Invalid JSON body', PLAIN]);
    expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['1', '4']);
  });

  it('charges 1 for an oversized body answered 413', async () => {
    const token = await get().createToken(5);
    const res = await get().inject({
      method: 'POST',
      url: '/kv/b/k',
      headers: { 'x-token': token },
      payload: 'x'.repeat(20_000),
    });
    expect([res.statusCode, res.body]).toEqual([413, 'Payload Too Large']);
    expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['1', '4']);
  });

  it('answers 402, not 400, to malformed JSON from an empty wallet', async () => {
    const token = await get().createToken(0);
    const res = await settings(token, '{');
    expect([res.statusCode, res.body]).toEqual([402, 'Insufficient credits']);
    expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['0', '0']);
  });
});

describeEachStore('metering of HEAD on a paid GET route', (kind) => {
  const get = useTestApp(kind);

  it('charges and logs a HEAD like the GET, and refuses it without a token', async () => {
    const token = await get().createToken(5);
    await get().inject({ method: 'POST', url: '/kv/b/k', headers: { 'x-token': token }, payload: 'v' });
    const head = await get().inject({ method: 'HEAD', url: '/kv/b/k', headers: { 'x-token': token } });
    expect([head.statusCode, head.headers['x-cost'], head.headers['x-balance']]).toEqual([200, '1', '3']);
    expect(await balanceOf(get(), token)).toBe(3);
    const logs = await get().inject({ method: 'GET', url: '/token/logs?n=1', headers: { 'x-token': token } });
    expect((logs.json() as { logs: Array<{ method: string; path: string }> }).logs[0]).toMatchObject({
      method: 'HEAD',
      path: '/kv/b/k',
    });
    expect((await get().inject({ method: 'HEAD', url: '/kv/b/k' })).statusCode).toBe(401);
  });
});
