import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbound } from '../../../src/outbound/outbound-client.js';
import {
  createTestCertificates,
  localhostLookup,
  startHttpsReceiver,
  type HttpsReceiver,
  type TestCertificates,
} from '../../helpers/https-receiver.js';

const LOOPBACK = ['127.0.0.0/8', '::1/128'];

let certs: TestCertificates;
let receiver: HttpsReceiver;

beforeAll(async () => {
  certs = createTestCertificates();
  receiver = await startHttpsReceiver({ certificates: certs });
});

afterAll(async () => {
  await receiver.close();
});

describe('outbound client: TLS trust', () => {
  it('refuses a server whose CA is not trusted when no extra CA is given', async () => {
    const outbound = createOutbound({ allowCidrs: LOOPBACK, lookup: localhostLookup, userAgent: 'x' });
    const before = receiver.requests.length;
    expect(await outbound.deliverJson(receiver.url('/hook'), '{}')).toMatchObject({ ok: false, cause: 'TLS error' });
    await expect(outbound.request({ url: receiver.url('/hook') })).rejects.toMatchObject({ code: 'tls_error' });
    expect(receiver.requests.length).toBe(before);
    await outbound.close();
  });

  it('refuses a server signed by a different CA than the extra one', async () => {
    const other = createTestCertificates();
    const outbound = createOutbound({
      allowCidrs: LOOPBACK,
      extraCaPem: other.caPem,
      lookup: localhostLookup,
      userAgent: 'x',
    });
    expect(await outbound.deliverJson(receiver.url('/hook'), '{}')).toMatchObject({ ok: false, cause: 'TLS error' });
    await outbound.close();
  });

  it('trusts the extra CA in addition to the system roots', async () => {
    const outbound = createOutbound({
      allowCidrs: LOOPBACK,
      extraCaPem: certs.caPem,
      lookup: localhostLookup,
      userAgent: 'x',
    });
    expect(await outbound.deliverJson(receiver.url('/hook'), '{}')).toMatchObject({ ok: true, status: 200 });
    expect(await outbound.deliverJson(receiver.url('/hook', '127.0.0.1'), '{}')).toMatchObject({
      ok: true,
      status: 200,
    });
    await outbound.close();
  });

  it('checks the certificate against the host name that was asked for', async () => {
    // The certificate names localhost and 127.0.0.1 only; a name that resolves to
    // the same address must still fail verification.
    const lookup = async (hostname: string) =>
      hostname === 'alias.test' ? [{ address: '127.0.0.1', family: 4 as const }] : localhostLookup(hostname);
    const outbound = createOutbound({ allowCidrs: LOOPBACK, extraCaPem: certs.caPem, lookup, userAgent: 'x' });
    expect(await outbound.deliverJson(`https://alias.test:${receiver.port}/hook`, '{}')).toMatchObject({
      ok: false,
      cause: 'TLS error',
    });
    await outbound.close();
  });
});
