/**
 * A TLS server on 127.0.0.1 with the certificate a test chooses, for TLS inspection tests:
 *
 *   const ca = createCertificateAuthority();
 *   const valid = ca.issue({ names: ['secure.test'], days: 90 });
 *   const expired = ca.issue({ names: ['old.test'], days: -1 });   // expired a day ago
 *   const self = selfSignedCertificate({ names: ['self.test'], days: 90 });
 *   const server = await startTlsServer(valid);                      // server.port
 *   const silent = await startSilentServer();                        // never answers
 *   await server.close();
 *
 * Certificates come from the openssl CLI (EC P-256), as in https-receiver.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';

export interface KeyPair {
  readonly certPem: string;
  readonly keyPem: string;
}

export interface CertificateAuthority {
  readonly caPem: string;
  /** A leaf for `names` (DNS SANs), valid from now for `days` (-1: expired yesterday). */
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

const sanLine = (names: readonly string[]) => `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')}`;

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
        openssl('req', '-new', ...EC_KEY, '-keyout', path('leaf.key'), '-out', path('leaf.csr'), '-subj', `/CN=${names[0] ?? 'leaf'}`);
        writeFileSync(
          path('leaf.ext'),
          [sanLine(names), 'basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=serverAuth'].join('\n'),
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

export interface TestTlsServer {
  readonly port: number;
  /** SNI names the server was asked for, in order. */
  readonly servernames: string[];
  close(): Promise<void>;
}

/** Completes handshakes with `pair`, then hangs up. */
export async function startTlsServer(pair: KeyPair): Promise<TestTlsServer> {
  const servernames: string[] = [];
  const server = createServer(
    {
      cert: pair.certPem,
      key: pair.keyPem,
      // Seen during the handshake, before the client may hang up.
      SNICallback: (servername, done) => {
        servernames.push(servername);
        done(null, undefined);
      },
    },
    (socket) => socket.end(),
  );
  server.on('tlsClientError', () => undefined);
  return listen(server, servernames);
}

/** Accepts TCP connections and never answers the ClientHello. */
export async function startSilentServer(): Promise<TestTlsServer> {
  return listen(
    createNetServer((socket) => socket.on('error', () => undefined)),
    [],
  );
}

async function listen(server: Server, servernames: string[]): Promise<TestTlsServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    servernames,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
