import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbound, type Outbound } from '../../../src/outbound/outbound-client.js';
import {
  createTestCertificates,
  localhostLookup,
  startHttpsReceiver,
  type HttpsReceiver,
  type ReceivedRequest,
} from '../../helpers/https-receiver.js';

// Two loopback HTTPS servers: same host, different ports, so different origins.
let first: HttpsReceiver;
let second: HttpsReceiver;
let outbound: Outbound;

const SIGNED = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,c2lnbmF0dXJl' };
const CALLER = { 'x-api-key': 'k-secret', authorization: 'Bearer secret', cookie: 'session=1', 'x-tenant': 'acme' };

beforeAll(async () => {
  const certificates = createTestCertificates();
  first = await startHttpsReceiver({ certificates });
  second = await startHttpsReceiver({ certificates });
  outbound = createOutbound({
    allowCidrs: ['127.0.0.0/8'],
    extraCaPem: certificates.caPem,
    lookup: localhostLookup,
    userAgent: 'coinop-webhook/test',
  });
});

afterAll(async () => {
  await outbound.close();
  await first.close();
  await second.close();
});

/** What `target` got after `first` redirected the request `send` makes to `location` with `status`. */
async function afterRedirect(
  target: HttpsReceiver,
  status: number,
  location: string,
  send: () => Promise<unknown>,
): Promise<ReceivedRequest | undefined> {
  first.enqueue({ status, headers: { location } });
  const before = target.requests.length;
  await send();
  return target.requests[target === first ? before + 1 : before];
}

describe('outbound client: headers on a redirect to another origin', () => {
  it.each([307, 302])(
    'a delivery redirected with %i to another port carries none of the caller headers there',
    async (status) => {
      const got = await afterRedirect(second, status, second.url('/moved', '127.0.0.1'), () =>
        outbound.deliverJson(first.url('/hook', '127.0.0.1'), '{"a":1}', { ...CALLER, ...SIGNED }, Object.keys(SIGNED)),
      );
      expect(got?.path).toBe('/moved');
      for (const name of Object.keys(CALLER)) expect(got?.headers[name], name).toBeUndefined();
      // Our own description of the request, and the Standard Webhooks headers, still reach the new origin.
      expect(got?.headers['user-agent']).toBe('coinop-webhook/test');
      expect(got?.headers).toMatchObject(SIGNED);
      if (status === 307)
        expect([got?.method, got?.text, got?.headers['content-type']]).toEqual(['POST', '{"a":1}', 'application/json']);
    },
  );

  it('a delivery keeps across origins only the headers its caller names portable: the client knows no signature of its own', async () => {
    const got = await afterRedirect(second, 307, second.url('/moved', '127.0.0.1'), () =>
      outbound.deliverJson(first.url('/hook', '127.0.0.1'), '{}', { ...CALLER, ...SIGNED }, ['webhook-id']),
    );
    expect(got?.headers['webhook-id']).toBe(SIGNED['webhook-id']);
    expect(got?.headers['webhook-timestamp']).toBeUndefined();
    expect(got?.headers['webhook-signature']).toBeUndefined();
    expect(got?.headers['x-api-key']).toBeUndefined();
  });

  it('a delivery redirected within its origin keeps the caller headers', async () => {
    const got = await afterRedirect(first, 307, '/same-origin', () =>
      outbound.deliverJson(first.url('/hook', '127.0.0.1'), '{}', { ...CALLER, ...SIGNED }, Object.keys(SIGNED)),
    );
    expect(got?.path).toBe('/same-origin');
    expect(got?.headers).toMatchObject({ ...CALLER, ...SIGNED });
  });

  it('a redirect to another host name of the same server is another origin too', async () => {
    const got = await afterRedirect(first, 307, first.url('/by-name', 'localhost'), () =>
      outbound.deliverJson(first.url('/hook', '127.0.0.1'), '{}', { 'x-api-key': 'k-secret' }),
    );
    expect(got?.path).toBe('/by-name');
    expect(got?.headers['x-api-key']).toBeUndefined();
  });

  it('a request redirected to another origin keeps only accept, accept-language and the user agent', async () => {
    const got = await afterRedirect(second, 302, second.url('/page', '127.0.0.1'), () =>
      outbound.request({
        url: first.url('/page', '127.0.0.1'),
        headers: { accept: 'text/html', 'accept-language': 'en', 'x-api-key': 'ai-key', authorization: 'Bearer ai' },
      }),
    );
    expect(got?.headers).toMatchObject({
      accept: 'text/html',
      'accept-language': 'en',
      'user-agent': 'coinop-webhook/test',
    });
    expect(got?.headers['x-api-key']).toBeUndefined();
    expect(got?.headers.authorization).toBeUndefined();
  });

  it('headers dropped on leaving the origin stay dropped when a later hop comes back to it', async () => {
    first.enqueue({ status: 307, headers: { location: second.url('/bounce', '127.0.0.1') } });
    second.enqueue({ status: 307, headers: { location: first.url('/back', '127.0.0.1') } });
    const before = first.requests.length;
    await outbound.deliverJson(first.url('/hook', '127.0.0.1'), '{}', { 'x-api-key': 'k-secret' });
    const back = first.requests[before + 1];
    expect(back?.path).toBe('/back');
    expect(back?.headers['x-api-key']).toBeUndefined();
  });
});
