import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOutbound,
  OutboundError,
  type Outbound,
  type OutboundOptions,
} from '../../../src/outbound/outbound-client.js';
import {
  createTestCertificates,
  localhostLookup,
  startHttpsReceiver,
  type HttpsReceiver,
  type TestCertificates,
} from '../../helpers/https-receiver.js';

// Every peer here listens on 127.0.0.1; loopback is reachable only through the
// allow list, exactly as OUTBOUND_ALLOW_CIDRS would set it in a test deployment.
const LOOPBACK = ['127.0.0.0/8', '::1/128'];
const USER_AGENT = 'coinop-webhook/0.1.0';

let certs: TestCertificates;
let receiver: HttpsReceiver;
let outbound: Outbound;

function makeOutbound(overrides: Partial<OutboundOptions> = {}): Outbound {
  return createOutbound({
    allowCidrs: LOOPBACK,
    extraCaPem: certs.caPem,
    lookup: localhostLookup,
    userAgent: USER_AGENT,
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundError);
  return err as OutboundError;
}

beforeAll(async () => {
  certs = createTestCertificates();
  receiver = await startHttpsReceiver({ certificates: certs });
  outbound = makeOutbound();
});

afterAll(async () => {
  await outbound.close();
  await receiver.close();
});

describe('outbound client: answers', () => {
  it('delivers JSON with content type and user agent and succeeds on 2xx', async () => {
    receiver.enqueue({ status: 204 });
    const before = receiver.requests.length;
    const result = await outbound.deliverJson(receiver.url('/hook?x=1'), JSON.stringify({ event: 'test', n: 1 }));
    expect(result).toMatchObject({ ok: true, status: 204 });
    expect(result.elapsedMs).toBeGreaterThanOrEqual(0);
    const req = receiver.requests[before];
    expect(req).toMatchObject({ method: 'POST', path: '/hook?x=1' });
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers['user-agent']).toBe(USER_AGENT);
    expect(JSON.parse(req?.text ?? '')).toEqual({ event: 'test', n: 1 });
  });

  it('returns status, headers, body and the address it talked to', async () => {
    receiver.enqueue({ status: 201, headers: { 'x-reply': 'yes', 'set-cookie': ['a=1', 'b=2'] }, body: 'created' });
    const res = await outbound.request({ url: receiver.url('/thing') });
    expect(res).toMatchObject({
      status: 201,
      truncated: false,
      redirects: 0,
      finalUrl: receiver.url('/thing'),
      remoteAddress: '127.0.0.1',
    });
    expect(res.body.toString()).toBe('created');
    expect(res.headers['x-reply']).toBe('yes');
    expect(res.headers['set-cookie']).toBe('a=1, b=2');
  });

  it('reaches a literal 127.0.0.1 URL when loopback is allowed', async () => {
    receiver.enqueue({ status: 200, body: 'by ip' });
    const res = await outbound.request({ url: receiver.url('/ip', '127.0.0.1') });
    expect(res.body.toString()).toBe('by ip');
  });

  it.each([
    [400, 'HTTP 400'],
    [404, 'HTTP 404'],
    [410, 'HTTP 410'],
    [500, 'HTTP 500'],
    [503, 'HTTP 503'],
  ])('records %i as a failed delivery', async (status, cause) => {
    receiver.enqueue({ status, body: 'nope' });
    expect(await outbound.deliverJson(receiver.url('/hook'), '{}')).toMatchObject({ ok: false, status, cause });
  });

  it('treats a 3xx without Location as a failed delivery, not a redirect', async () => {
    receiver.enqueue({ status: 302 });
    expect(await outbound.deliverJson(receiver.url('/hook'), '{}')).toMatchObject({
      ok: false,
      status: 302,
      cause: 'HTTP 302',
    });
  });

  it('sends HEAD and returns no body', async () => {
    receiver.enqueue({ status: 200, body: 'ignored' });
    const res = await outbound.request({ url: receiver.url('/head'), method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
  });
});

describe('outbound client: connections', () => {
  /** A receiver of its own (its connection count starts at 0) and a client, both closed after `run`. */
  async function withOwnReceiver(
    overrides: Partial<OutboundOptions>,
    run: (own: HttpsReceiver, client: Outbound) => Promise<void>,
  ): Promise<void> {
    const own = await startHttpsReceiver({ certificates: certs });
    const client = makeOutbound(overrides);
    try {
      await run(own, client);
    } finally {
      await client.close();
      await own.close();
    }
  }

  it('keeps a delivery connection for the next delivery to the same receiver, and opens one per request otherwise', async () => {
    await withOwnReceiver({}, async (own, client) => {
      for (let i = 0; i < 3; i++) {
        expect(await client.deliverJson(own.url('/reuse'), JSON.stringify({ i }))).toMatchObject({ ok: true });
        // undici puts a connection back in its pool once the response is done, a turn later.
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(own.connections).toBe(1);
      await client.request({ url: own.url('/fetch') });
      await client.request({ url: own.url('/fetch') });
      expect(own.connections).toBe(3);
    });
  });

  it('keeps an idle delivery connection only about a second', async () => {
    await withOwnReceiver({}, async (own, client) => {
      expect(await client.deliverJson(own.url('/first'), '{}')).toMatchObject({ ok: true });
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      expect(await client.deliverJson(own.url('/later'), '{}')).toMatchObject({ ok: true });
      expect(own.connections).toBe(2);
    });
  });

  it('judges each new delivery connection on its resolved address, with a delivery connection already open', async () => {
    // `other.test` resolves to a loopback address outside the allow list.
    const lookup = async (hostname: string) =>
      hostname === 'other.test' ? [{ address: '127.0.0.2', family: 4 as const }] : localhostLookup(hostname);
    await withOwnReceiver({ allowCidrs: ['127.0.0.1/32'], lookup }, async (own, client) => {
      expect(await client.deliverJson(own.url('/ok'), '{}')).toMatchObject({ ok: true });
      const refused = await client.deliverJson(own.url('/ok').replace('localhost', 'other.test'), '{}');
      expect(refused).toMatchObject({ ok: false, cause: expect.stringMatching(/refused/) });
      expect(own.requests.map((request) => request.path)).toEqual(['/ok']);
    });
  });
});

describe('outbound client: headers', () => {
  it('sends custom headers but not hop-by-hop, host or content-length', async () => {
    receiver.enqueue({ status: 200 });
    const before = receiver.requests.length;
    const body = JSON.stringify({ a: 1 });
    await outbound.request({
      url: receiver.url('/headers'),
      method: 'POST',
      body,
      headers: {
        'X-Custom': 'kept',
        authorization: 'Bearer abc',
        connection: 'upgrade',
        upgrade: 'websocket',
        'keep-alive': 'timeout=99',
        te: 'trailers',
        trailer: 'x-trailer',
        'transfer-encoding': 'chunked',
        'proxy-authorization': 'Basic Zm9v',
        'proxy-anything': 'x',
        host: 'evil.example',
        'content-length': '9999',
        'x-bad-value': 'a\r\nx-injected: 1',
      },
    });
    const received = receiver.requests[before];
    expect(received).toBeDefined();
    const { headers, text } = received ?? { headers: {} as IncomingHttpHeaders, text: '' };
    expect(headers['x-custom']).toBe('kept');
    expect(headers.authorization).toBe('Bearer abc');
    expect(headers.host).toBe(`localhost:${receiver.port}`);
    expect(headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(text).toBe(body);
    for (const name of [
      'upgrade',
      'keep-alive',
      'te',
      'trailer',
      'transfer-encoding',
      'proxy-authorization',
      'proxy-anything',
      'x-bad-value',
      'x-injected',
    ]) {
      expect(headers[name], name).toBeUndefined();
    }
    expect(headers.connection ?? '').not.toMatch(/upgrade/i);
  });

  it('lets configured headers ride along with a delivery without overriding content type or user agent', async () => {
    receiver.enqueue({ status: 200 });
    const before = receiver.requests.length;
    await outbound.deliverJson(receiver.url('/hook'), '{}', {
      'X-Api-Key': 'k',
      'Content-Type': 'text/plain',
      'user-agent': 'spoof',
    });
    const headers = receiver.requests[before]?.headers ?? {};
    expect(headers['x-api-key']).toBe('k');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe(USER_AGENT);
  });
});

describe('outbound client: timeouts and limits', () => {
  it('gives up after timeoutMs when the receiver never answers', async () => {
    const quick = makeOutbound({ timeoutMs: 300 });
    receiver.enqueue({ hang: true });
    const result = await quick.deliverJson(receiver.url('/slow'), '{}');
    expect(result).toMatchObject({ ok: false, cause: 'timeout after 0.3s' });
    expect(result.elapsedMs).toBeGreaterThanOrEqual(250);
    expect(result.elapsedMs).toBeLessThan(2_000);
    await quick.close();
  });

  it('counts the body read against the same timeout', async () => {
    receiver.enqueue({ status: 200, drip: { chunk: 'x', intervalMs: 100 } });
    const err = await failure(outbound.request({ url: receiver.url('/drip'), timeoutMs: 400 }));
    expect(err.code).toBe('timeout');
    expect(err.message).toBe('timeout after 0.4s');
  });

  it('truncates a body beyond the cap instead of buffering it', async () => {
    receiver.enqueue({ status: 200, body: Buffer.alloc(200_000, 0x61) });
    const res = await outbound.request({ url: receiver.url('/big'), maxResponseBytes: 1_000 });
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(1_000);
  });

  it('stops reading an endless body at the cap', async () => {
    receiver.enqueue({ status: 200, drip: { chunk: Buffer.alloc(16_384, 0x62), intervalMs: 1 } });
    const res = await outbound.request({ url: receiver.url('/endless'), maxResponseBytes: 100_000, timeoutMs: 5_000 });
    expect(res).toMatchObject({ status: 200, truncated: true });
    expect(res.body.length).toBe(100_000);
  });

  it('does not flag a body of exactly the cap as truncated', async () => {
    receiver.enqueue({ status: 200, body: 'abcde' });
    const res = await outbound.request({ url: receiver.url('/exact'), maxResponseBytes: 5 });
    expect(res).toMatchObject({ truncated: false });
    expect(res.body.toString()).toBe('abcde');
  });
});

describe('outbound client: connection failures', () => {
  it('reports a closed port as a connection failure', async () => {
    const gone = await startHttpsReceiver({ certificates: certs });
    const url = gone.url('/');
    await gone.close();
    expect(await outbound.deliverJson(url, '{}')).toMatchObject({ ok: false, cause: 'connection failed' });
    expect((await failure(outbound.request({ url }))).code).toBe('connect_failed');
  });

  it('reports an unknown name as a DNS failure', async () => {
    expect((await failure(outbound.request({ url: 'https://unknown.invalid/' }))).code).toBe('dns_failure');
  });

  it('refuses loopback when the allow list does not exempt it', async () => {
    const strict = makeOutbound({ allowCidrs: [] });
    expect(await strict.deliverJson(receiver.url('/hook'), '{}')).toMatchObject({
      ok: false,
      cause: 'refused address',
    });
    expect(await strict.deliverJson(receiver.url('/hook', '127.0.0.1'), '{}')).toMatchObject({
      ok: false,
      cause: 'refused address',
    });
    await strict.close();
  });

  it('refuses new requests once closed', async () => {
    const closing = makeOutbound();
    await closing.close();
    expect((await failure(closing.request({ url: receiver.url('/') }))).code).toBe('connect_failed');
  });
});

describe('outbound client: save-time check', () => {
  it('accepts the loopback receiver only with the allow list', async () => {
    await expect(outbound.checkUrl(receiver.url('/hook'))).resolves.toBeUndefined();
    const strict = makeOutbound({ allowCidrs: [] });
    await expect(strict.checkUrl(receiver.url('/hook'))).rejects.toThrow('Invalid url: refused address');
    await expect(strict.checkUrl(`http://localhost:${receiver.port}/`)).rejects.toThrow(
      'Invalid url: must be an https URL',
    );
  });
});
