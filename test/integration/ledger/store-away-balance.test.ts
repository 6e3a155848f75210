import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { startPrivatePostgres } from '../../helpers/private-postgres.js';
import type { PrivatePostgres } from '../../helpers/private-postgres.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';

/**
 * While the database is away, an authenticated answer is the 503 with x-cost 0 and the balance the wallet
 * last had in this instance's answers, from memory (the store cannot be asked). A PostgreSQL of the test's
 * own, stopped between two calls of one token.
 */
describe('the 503 of a store that is away, to a token holder', () => {
  let pg: PrivatePostgres | undefined;
  let t: TestApp | undefined;
  const outbound = useOutboundFixture();
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    if (pg === undefined) return;
    t = await startTestApp('postgres', { database: { url: pg.url, drop: async () => undefined }, env: outbound.env });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await pg?.destroy();
  });

  const headersOf = (res: LightMyRequestResponse) => ({
    status: res.statusCode,
    type: res.headers['content-type'],
    body: res.body,
    retryAfter: res.headers['retry-after'],
    cost: res.headers['x-cost'],
    balance: res.headers['x-balance'],
  });
  /** The first answer of `call` that is not a 503, within 10 s of the database's return. */
  const untilServing = async (call: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> => {
    let answer = await call();
    for (
      const deadline = Date.now() + 10_000;
      answer.statusCode === 503 && Date.now() < deadline;
      answer = await call()
    )
      await new Promise((resolve) => setTimeout(resolve, 100));
    return answer;
  };
  const away = (balance: string | undefined) => ({
    status: 503,
    type: 'text/plain; charset=utf-8',
    body: 'Service Unavailable',
    retryAfter: '2',
    cost: '0',
    balance,
  });

  it('carries x-cost 0 and the last known x-balance, and the balance is exact once the database is back', async (context) => {
    if (pg === undefined || t === undefined) return context.skip();
    const app = t;
    const used = await app.createToken(100);
    const unused = await app.createToken(100);
    const set = (token: string, key: string) =>
      app.inject({ method: 'POST', url: `/kv/b/${key}`, payload: 'v', headers: { 'x-token': token } });
    expect(headersOf(await set(used, 'before'))).toMatchObject({ status: 200, cost: '1', balance: '99' });

    await pg.stop();
    try {
      // The charge meets the database away: nothing charged, the balance of the last answer.
      expect(headersOf(await set(used, 'during'))).toEqual(away('99'));
      // A client error that pays (an unparsable body) cannot be charged either: the same 503, not a 500.
      const unparsable = await app.inject({
        method: 'POST',
        url: '/webhook',
        payload: '{',
        headers: { 'x-token': used, 'content-type': 'application/json' },
      });
      expect(headersOf(unparsable)).toEqual(away('99'));
      // A wallet this instance has not seen: its lookup fails, so x-cost 0 and no balance.
      expect(headersOf(await set(unused, 'during'))).toEqual(away(undefined));
    } finally {
      await pg.start();
    }

    expect(headersOf(await untilServing(() => set(used, 'after')))).toMatchObject({
      status: 200,
      cost: '1',
      balance: '98',
    });
  }, 60_000);

  it('reports a charge committed before the database went away as it was, when its refund cannot be made', async (context) => {
    if (pg === undefined || t === undefined) return context.skip();
    const app = t;
    const database = pg;
    const token = await app.createToken(100);
    // The target stops the database while the call is in flight, then fails: the 502 would be refunded to 0.
    outbound.receiver().respondWith(async () => {
      await database.stop();
      return { status: 500, body: 'down' };
    });
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/url-to-metadata',
        headers: { 'x-token': token, 'content-type': 'application/json' },
        payload: JSON.stringify({ url: outbound.url('/down') }),
      });
      // The route's own error shape (the url-to-metadata failure body of docs/contract.md#url-metadata), the store-away headers.
      const body = JSON.stringify({ success: false, error: 'Service Unavailable' });
      expect(headersOf(res)).toEqual({ ...away('45'), type: 'application/json; charset=utf-8', body, cost: '55' });
    } finally {
      await database.start();
    }
    // The charge stood, as the answer said: 45 left, less the credit of this call.
    const wallet = await untilServing(() =>
      app.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } }),
    );
    expect(headersOf(wallet)).toMatchObject({ status: 200, cost: '1', balance: '44' });
  }, 60_000);
});
