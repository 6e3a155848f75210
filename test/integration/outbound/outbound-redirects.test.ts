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
  type ReceivedRequest,
  type ScriptedResponse,
} from '../../helpers/https-receiver.js';

const LOOPBACK = ['127.0.0.0/8', '::1/128'];

let receiver: HttpsReceiver;
let plain: HttpsReceiver;
let outbound: Outbound;

// `internal.test` stands for a name whose DNS points inside the network.
const lookup: NonNullable<OutboundOptions['lookup']> = async (hostname) =>
  hostname === 'internal.test' ? [{ address: '10.0.0.7', family: 4 }] : localhostLookup(hostname);

// /chain/<n> redirects to /chain/<n-1>; /chain/0 answers 200.
function chain(req: ReceivedRequest): ScriptedResponse {
  const match = /^\/chain\/(\d+)/.exec(req.path);
  const left = Number(match?.[1] ?? 0);
  return left === 0
    ? { status: 200, body: 'end of chain' }
    : { status: 302, headers: { location: `/chain/${left - 1}` } };
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
  const certs = createTestCertificates();
  receiver = await startHttpsReceiver({ certificates: certs, responder: chain });
  plain = await startHttpsReceiver({ protocol: 'http' });
  outbound = createOutbound({
    allowCidrs: LOOPBACK,
    extraCaPem: certs.caPem,
    lookup,
    userAgent: 'coinop-webhook/0.1.0',
  });
});

afterAll(async () => {
  await outbound.close();
  await receiver.close();
  await plain.close();
});

describe('outbound client: redirect limits', () => {
  it('follows a chain of exactly 10 redirects', async () => {
    const before = receiver.requests.length;
    const res = await outbound.request({ url: receiver.url('/chain/10') });
    expect(res).toMatchObject({ status: 200, redirects: 10, finalUrl: receiver.url('/chain/0') });
    expect(res.body.toString()).toBe('end of chain');
    expect(receiver.requests.length - before).toBe(11);
  });

  it('refuses the 11th redirect', async () => {
    const before = receiver.requests.length;
    expect((await failure(outbound.request({ url: receiver.url('/chain/11') }))).code).toBe('too_many_redirects');
    expect(receiver.requests.length - before).toBe(11); // /chain/0 is never asked for
    expect(await outbound.deliverJson(receiver.url('/chain/11'), '{}')).toMatchObject({
      ok: false,
      cause: 'too many redirects',
    });
  });

  it('honours a smaller maxRedirects', async () => {
    const strict = createOutbound({
      allowCidrs: LOOPBACK,
      extraCaPem: receiver.certificates?.caPem,
      lookup,
      userAgent: 'x',
      maxRedirects: 2,
    });
    await expect(strict.request({ url: receiver.url('/chain/2') })).resolves.toMatchObject({ redirects: 2 });
    expect((await failure(strict.request({ url: receiver.url('/chain/3') }))).code).toBe('too_many_redirects');
    await strict.close();
  });
});

describe('outbound client: redirect targets', () => {
  it('refuses an https → http hop', async () => {
    const before = plain.requests.length;
    receiver.enqueue({ status: 301, headers: { location: plain.url('/downgraded') } });
    expect(await outbound.deliverJson(receiver.url('/hook'), '{}')).toMatchObject({
      ok: false,
      cause: 'insecure redirect',
    });
    expect(plain.requests.length).toBe(before);
  });

  it('follows an http hop when http is allowed', async () => {
    receiver.enqueue({ status: 307, headers: { location: plain.url('/ok') } });
    const res = await outbound.request({ url: receiver.url('/hook'), allowHttp: true });
    expect(res).toMatchObject({ status: 200, redirects: 1, finalUrl: plain.url('/ok') });
  });

  it.each([
    ['https://10.0.0.1/', 'a private literal'],
    ['https://169.254.169.254/latest/meta-data/', 'the metadata address'],
    ['https://[::ffff:10.0.0.1]/', 'an IPv4-mapped private literal'],
    ['https://0x7f000002/', '127.0.0.2 in hex, outside this allow list'],
    ['https://internal.test/', 'a name resolving to a private address'],
  ])('refuses a redirect to %s (%s)', async (location) => {
    const narrow = createOutbound({
      allowCidrs: ['127.0.0.1/32'],
      extraCaPem: receiver.certificates?.caPem,
      lookup,
      userAgent: 'x',
    });
    // Only 127.0.0.1 is exempt here: the receiver (reached as `localhost`) is, the targets are not.
    receiver.enqueue({ status: 302, headers: { location } });
    expect(await narrow.deliverJson(receiver.url('/hook'), '{}')).toMatchObject({
      ok: false,
      cause: 'refused address',
    });
    await narrow.close();
  });

  it('refuses a redirect carrying credentials or an odd scheme', async () => {
    receiver.enqueue({ status: 302, headers: { location: 'https://user:pw@localhost/' } });
    expect((await failure(outbound.request({ url: receiver.url('/') }))).code).toBe('response_error');
    receiver.enqueue({ status: 302, headers: { location: 'file:///etc/passwd' } });
    expect((await failure(outbound.request({ url: receiver.url('/') }))).code).toBe('response_error');
  });
});

describe('outbound client: methods across redirects', () => {
  it('turns POST into GET without body on 303', async () => {
    receiver.enqueue({ status: 303, headers: { location: '/after-303' } }, { status: 200 });
    const before = receiver.requests.length;
    const res = await outbound.request({
      url: receiver.url('/form'),
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    const [first, second] = receiver.requests.slice(before);
    expect(first).toMatchObject({ method: 'POST', text: '{"a":1}' });
    expect(second).toMatchObject({ method: 'GET', path: '/after-303', text: '' });
    expect(second?.headers['content-type']).toBeUndefined();
  });

  it.each([301, 302])('turns POST into GET on %i', async (status) => {
    receiver.enqueue({ status, headers: { location: '/moved' } }, { status: 200 });
    const before = receiver.requests.length;
    await outbound.request({ url: receiver.url('/form'), method: 'POST', body: 'x' });
    expect(receiver.requests[before + 1]).toMatchObject({ method: 'GET', text: '' });
  });

  it.each([307, 308])('keeps method and body on %i', async (status) => {
    receiver.enqueue({ status, headers: { location: '/kept' } }, { status: 200 });
    const before = receiver.requests.length;
    const result = await outbound.deliverJson(receiver.url('/hook'), JSON.stringify({ keep: true }));
    expect(result).toMatchObject({ ok: true, status: 200 });
    const second = receiver.requests[before + 1];
    expect(second).toMatchObject({ method: 'POST', path: '/kept', text: '{"keep":true}' });
    expect(second?.headers['content-type']).toBe('application/json');
  });

  it('drops authorization and custom headers on a cross-origin hop', async () => {
    receiver.enqueue(
      { status: 307, headers: { location: receiver.url('/other-origin', '127.0.0.1') } },
      { status: 200 },
    );
    const before = receiver.requests.length;
    await outbound.deliverJson(receiver.url('/hook'), '{}', { authorization: 'Bearer secret', 'x-signature': 'sig' });
    const [first, second] = receiver.requests.slice(before);
    expect(first?.headers.authorization).toBe('Bearer secret');
    expect(second?.headers.authorization).toBeUndefined();
    expect(second?.headers['x-signature']).toBeUndefined();
  });
});
