import { createServer } from 'node:net';
import { createSecureContext } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectCertificate, TlsInspectionError } from '../../../src/outbound/tls-probe.js';
import { inspectDomainCertificate } from '../../../src/features/dns/ssl-check.js';
import type { SslContext } from '../../../src/features/dns/ssl-check.js';
import { createRequestResolver } from '../../../src/features/dns/request-resolver.js';
import { createDnsClient } from '../../../src/outbound/dns/wire-client.js';
import { createAddressPolicy } from '../../../src/outbound/address-policy.js';
import { createCertificateAuthority, selfSignedCertificate } from '../../helpers/certificates.js';
import type { CertificateAuthority } from '../../helpers/certificates.js';
import { startSilentServer, startTlsServer } from '../../helpers/tls-server.js';
import type { TestTlsServer } from '../../helpers/tls-server.js';
import { rr, startDnsServer } from '../../helpers/dns-server.js';
import type { TestDnsServer } from '../../helpers/dns-server.js';

const DAY = 86_400_000;

async function closedTcpPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('TLS certificate inspection against local TLS servers', () => {
  let ca: CertificateAuthority;
  let valid: TestTlsServer;
  let expiring: TestTlsServer;
  let expired: TestTlsServer;
  let selfSigned: TestTlsServer;

  beforeAll(async () => {
    ca = createCertificateAuthority();
    valid = await startTlsServer(ca.issue({ names: ['secure.test', 'www.secure.test'], days: 90 }));
    expiring = await startTlsServer(ca.issue({ names: ['soon.test'], days: 10 }));
    expired = await startTlsServer(ca.issue({ names: ['old.test'], days: -1 }));
    selfSigned = await startTlsServer(selfSignedCertificate({ names: ['self.test'], days: 90 }));
  });
  afterAll(async () => {
    await Promise.all([valid, expiring, expired, selfSigned].map((server) => server?.close()));
  });

  const inspect = (hostname: string, port: number, timeoutMs = 2000) =>
    inspectCertificate({
      hostname,
      address: '127.0.0.1',
      port,
      timeoutMs,
      secureContext: createSecureContext({ ca: [ca.caPem] }),
      now: Date.now(),
    });

  it('reads expiry, issuer and names of a valid certificate, sending the name as SNI', async () => {
    const report = await inspect('secure.test', valid.port);
    expect(report.chainValid).toBe(true);
    expect(report.validationError).toBeUndefined();
    expect(report.subjectAltNames).toEqual(['secure.test', 'www.secure.test']);
    expect(report.issuer).toContain('CN=coinop test CA');
    expect(report.daysUntilExpiry).toBeGreaterThanOrEqual(89);
    expect(report.daysUntilExpiry).toBeLessThanOrEqual(90);
    expect(Math.abs(Date.parse(report.expiresAt) - (Date.now() + 90 * DAY))).toBeLessThan(60_000);
    expect(valid.servernames).toContain('secure.test');
  });

  it('does not validate a certificate that does not cover the name', async () => {
    const report = await inspect('other.test', valid.port);
    expect(report.chainValid).toBe(false);
    expect(report.validationError).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('reports an expired certificate with negative days and the validation error', async () => {
    const report = await inspect('old.test', expired.port);
    expect(report.chainValid).toBe(false);
    expect(report.validationError).toBe('CERT_HAS_EXPIRED');
    expect(report.daysUntilExpiry).toBe(-1);
  });

  it('reports a self-signed certificate as not validated', async () => {
    const report = await inspect('self.test', selfSigned.port);
    expect(report.chainValid).toBe(false);
    expect(report.validationError).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(report.issuer).toContain('CN=self.test');
    expect(report.daysUntilExpiry).toBeGreaterThanOrEqual(89);
  });

  it('gives up after the timeout when the server never completes the handshake', async () => {
    const silent = await startSilentServer();
    try {
      const started = performance.now();
      await expect(inspect('secure.test', silent.port, 200)).rejects.toThrow(
        new TlsInspectionError('no TLS handshake within 200 ms'),
      );
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      await silent.close();
    }
  });

  it('reports a refused connection', async () => {
    await expect(inspect('secure.test', await closedTcpPort())).rejects.toThrow('ECONNREFUSED');
  });

  describe('of a domain, with warnings', () => {
    let dns: TestDnsServer;
    beforeAll(async () => {
      dns = await startDnsServer({
        zone: [
          rr('secure.test', 'A', '127.0.0.1'),
          rr('soon.test', 'A', '127.0.0.1'),
          rr('old.test', 'A', '127.0.0.1'),
          rr('self.test', 'A', '127.0.0.1'),
          rr('nowhere.test', 'TXT', ['x']),
        ],
      });
    });
    afterAll(async () => {
      await dns?.close();
    });

    const context = (port: number, allow: string[]): SslContext => ({
      resolver: createRequestResolver(createDnsClient([{ host: '127.0.0.1', port: dns.port }]), {
        options: { timeoutMs: 1000, maxRetries: 0, retryDelayMs: 0 },
        concurrency: 4,
        policy: createAddressPolicy(allow),
      }),
      policy: createAddressPolicy(allow),
      port,
      secureContext: createSecureContext({ ca: [ca.caPem] }),
      now: () => Date.now(),
    });

    it('gives the fields of the contract and no warning for a valid certificate far from expiry', async () => {
      const fields = await inspectDomainCertificate(
        context(valid.port, ['127.0.0.0/8']),
        'secure.test',
        undefined,
        1000,
      );
      expect(fields).toMatchObject({
        ssl_chain_valid: true,
        ssl_subject_alt_names: ['secure.test', 'www.secure.test'],
        warnings: [],
        recommendations: [],
      });
      expect(fields.ssl_days_until_expiry).toBeGreaterThanOrEqual(89);
      expect(fields.ssl_certificate_expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    it('warns when the certificate expires within 30 days', async () => {
      const fields = await inspectDomainCertificate(
        context(expiring.port, ['127.0.0.0/8']),
        'soon.test',
        undefined,
        1000,
      );
      expect(fields.ssl_chain_valid).toBe(true);
      expect(fields.warnings).toEqual([`SSL certificate expires in ${fields.ssl_days_until_expiry} days`]);
      expect(fields.recommendations).toEqual(['Renew the SSL certificate before it expires']);
    });

    it('warns when the certificate expired and does not validate', async () => {
      const fields = await inspectDomainCertificate(
        context(expired.port, ['127.0.0.0/8']),
        'old.test',
        undefined,
        1000,
      );
      expect(fields).toMatchObject({ ssl_chain_valid: false, ssl_days_until_expiry: -1 });
      expect(fields.warnings).toEqual([
        'SSL certificate expired 1 day ago',
        'SSL certificate did not validate (CERT_HAS_EXPIRED)',
      ]);
    });

    it('warns when a self-signed certificate does not validate', async () => {
      const fields = await inspectDomainCertificate(
        context(selfSigned.port, ['127.0.0.0/8']),
        'self.test',
        undefined,
        1000,
      );
      expect(fields.warnings).toEqual(['SSL certificate did not validate (DEPTH_ZERO_SELF_SIGNED_CERT)']);
      expect(fields.recommendations).toEqual([
        'Serve a certificate for self.test from a trusted CA, with its full chain',
      ]);
    });

    it('never connects to a non-public address unless OUTBOUND_ALLOW_CIDRS allows it', async () => {
      const before = valid.servernames.length;
      const fields = await inspectDomainCertificate(context(valid.port, []), 'secure.test', undefined, 1000);
      expect(fields).toEqual({
        ssl_error: 'secure.test resolves to a non-public address',
        warnings: ['SSL inspection failed: secure.test resolves to a non-public address'],
        recommendations: [],
      });
      expect(valid.servernames.length).toBe(before);
    });

    it('reports a domain without an address', async () => {
      const fields = await inspectDomainCertificate(
        context(valid.port, ['127.0.0.0/8']),
        'nowhere.test',
        undefined,
        1000,
      );
      expect(fields.warnings).toEqual(['SSL inspection failed: nowhere.test has no address']);
    });
  });
});
