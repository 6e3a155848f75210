/**
 * Certificates for tests, from the openssl CLI (EC P-256; node has no X.509 signing API):
 *
 *   const ca = createCertificateAuthority();
 *   const valid = ca.issue({ names: ['secure.test'], days: 90 });        // ca.caPem trusts it
 *   const local = ca.issue({ names: ['localhost', '127.0.0.1', '::1'], days: 2 });
 *   const expired = ca.issue({ names: ['old.test'], days: -1 });         // expired a day ago
 *   const self = selfSignedCertificate({ names: ['self.test'], days: 90 });
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KeyPair {
  readonly certPem: string;
  readonly keyPem: string;
}

export interface CertificateAuthority {
  readonly caPem: string;
  /** A leaf for `names` (SANs: IP addresses as IP, the others as DNS), valid from now for `days` (-1: expired yesterday). */
  issue(options: { readonly names: readonly string[]; readonly days: number }): KeyPair;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function inTempDir<T>(work: (path: (name: string) => string, openssl: (...args: string[]) => void) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-tls-'));
  try {
    return work(
      (name) => join(dir, name),
      (...args) => {
        execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const sanLine = (names: readonly string[]) =>
  `subjectAltName=${names.map((name) => `${isIP(name) === 0 ? 'DNS' : 'IP'}:${name}`).join(',')}`;

export function createCertificateAuthority(commonName = 'coinop test CA'): CertificateAuthority {
  const { caPem, caKey } = inTempDir((path, openssl) => {
    openssl(
      'req',
      '-x509',
      ...EC_KEY,
      '-keyout',
      path('ca.key'),
      '-out',
      path('ca.pem'),
      '-days',
      '30',
      '-subj',
      `/CN=${commonName}/O=coinop tests`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    return { caPem: readFileSync(path('ca.pem'), 'utf8'), caKey: readFileSync(path('ca.key'), 'utf8') };
  });
  return {
    caPem,
    issue: ({ names, days }) =>
      inTempDir((path, openssl) => {
        writeFileSync(path('ca.pem'), caPem);
        writeFileSync(path('ca.key'), caKey);
        openssl(
          'req',
          '-new',
          ...EC_KEY,
          '-keyout',
          path('leaf.key'),
          '-out',
          path('leaf.csr'),
          '-subj',
          `/CN=${names[0] ?? 'leaf'}`,
        );
        writeFileSync(
          path('leaf.ext'),
          [
            sanLine(names),
            'basicConstraints=critical,CA:FALSE',
            'keyUsage=critical,digitalSignature',
            'extendedKeyUsage=serverAuth',
          ].join('\n'),
        );
        openssl(
          'x509',
          '-req',
          '-in',
          path('leaf.csr'),
          '-CA',
          path('ca.pem'),
          '-CAkey',
          path('ca.key'),
          '-set_serial',
          `0x${Date.now().toString(16)}`,
          '-days',
          String(days),
          '-out',
          path('leaf.pem'),
          '-extfile',
          path('leaf.ext'),
        );
        return { certPem: readFileSync(path('leaf.pem'), 'utf8'), keyPem: readFileSync(path('leaf.key'), 'utf8') };
      }),
  };
}

export function selfSignedCertificate(options: { readonly names: readonly string[]; readonly days: number }): KeyPair {
  return inTempDir((path, openssl) => {
    openssl(
      'req',
      '-x509',
      ...EC_KEY,
      '-keyout',
      path('self.key'),
      '-out',
      path('self.pem'),
      '-days',
      String(options.days),
      '-subj',
      `/CN=${options.names[0] ?? 'self'}`,
      '-addext',
      sanLine(options.names),
    );
    return { certPem: readFileSync(path('self.pem'), 'utf8'), keyPem: readFileSync(path('self.key'), 'utf8') };
  });
}
