import type { FastifyInstance, FastifyRequest, InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { balanceOf } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { meteredApp } from '../../helpers/metered-app.js';
import type { LoggedLine } from '../../helpers/metered-app.js';
import { errors } from '../../../src/errors.js';
import type { MeterSpec } from '../../../src/http/metering.js';

const PLAIN = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const meter: MeterSpec = { category: 'kv', cost: 3 };
interface FailBody {
  readonly fail: 'ours' | 'crash';
}
const Body = {
  type: 'object',
  required: ['fail'],
  properties: { fail: { type: 'string', enum: ['ours', 'crash'] } },
} as const;

/**
 * The one extension point of the shared error handler: a route declares `config.errorBody` and only the
 * body changes; charging, logging and the service-wide 401/402 answers stay the handler's.
 */
describeEachStore('error bodies declared per route', (kind) => {
  const get = useTestApp(kind);
  let logged: LoggedLine[] = [];
  let app: FastifyInstance;

  beforeAll(async () => {
    ({ app, logged } = meteredApp(get().deps));
    const handler = async (request: FastifyRequest<{ Body: FailBody }>) => {
      if (request.body.fail === 'ours') throw errors.badGateway('Could not fetch the URL: timeout after 10s');
      throw new Error('a bug');
    };
    app.post<{ Body: FailBody }>('/plain', { config: { meter }, schema: { body: Body } }, handler);
    app.post<{ Body: FailBody }>(
      '/json',
      { config: { meter, errorBody: 'json-failure' }, schema: { body: Body } },
      handler,
    );
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  const call = (url: string, token: string | undefined, payload: string) => {
    const options: InjectOptions = {
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { 'x-token': token }) },
      payload,
    };
    return app.inject(options);
  };

  it('answers in plain text by default', async () => {
    const res = await call('/plain', await get().createToken(10), '{"fail":"ours"}');
    expect([res.statusCode, res.headers['content-type'], res.body]).toEqual([
      502,
      PLAIN,
      'Could not fetch the URL: timeout after 10s',
    ]);
  });

  it('answers {success: false, error} on a route that declares json-failure, same status and message', async () => {
    const res = await call('/json', await get().createToken(10), '{"fail":"ours"}');
    expect([res.statusCode, res.headers['content-type']]).toEqual([502, JSON_TYPE]);
    expect(res.json()).toStrictEqual({ success: false, error: 'Could not fetch the URL: timeout after 10s' });
  });

  it('still charges a body that could not be parsed, once, before answering in the declared shape', async () => {
    const token = await get().createToken(10);
    const res = await call('/json', token, '{"fail":');
    expect([res.statusCode, res.json()]).toEqual([400, { success: false, error: 'Invalid JSON body' }]);
    expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['3', '7']);
    expect(await balanceOf(get(), token)).toBe(7);
  });

  it('logs an unexpected error once and answers 500 in the declared shape', async () => {
    logged.length = 0;
    const res = await call('/json', await get().createToken(10), '{"fail":"crash"}');
    expect([res.statusCode, res.json()]).toEqual([500, { success: false, error: 'Internal Server Error' }]);
    expect(logged.map((line) => line.msg)).toEqual(['unhandled error']);
  });

  it('keeps the service-wide plain-text 401 and 402 on a json-failure route', async () => {
    const unauthorized = await call('/json', undefined, '{"fail":"ours"}');
    expect([unauthorized.statusCode, unauthorized.headers['content-type'], unauthorized.body]).toEqual([
      401,
      PLAIN,
      'Unauthorized',
    ]);
    const poor = await call('/json', await get().createToken(2), '{"fail":"ours"}');
    expect([poor.statusCode, poor.headers['content-type'], poor.body]).toEqual([402, PLAIN, 'Insufficient credits']);
  });
});
