import { connect } from 'node:tls';
import type { PeerCertificate, SecureContext } from 'node:tls';
import { DAY } from '../lib/time.js';

/** What the handshake showed of the leaf certificate. */
export interface CertificateReport {
  readonly address: string;
  readonly expiresAt: string;
  /** Whole days left before expiry; once expired, minus the whole days since (at least -1). */
  readonly daysUntilExpiry: number;
  readonly issuer: string;
  readonly subjectAltNames: string[];
  /** The chain reached a trusted root and the certificate covers the name. */
  readonly chainValid: boolean;
  /** OpenSSL's reason when it did not (e.g. CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT). */
  readonly validationError?: string;
}

export class TlsInspectionError extends Error {
  override name = 'TlsInspectionError';
}

export interface InspectOptions {
  /** SNI and the name the certificate must cover. */
  readonly hostname: string;
  /** The address to connect to, already judged by the address policy. */
  readonly address: string;
  readonly port: number;
  readonly timeoutMs: number;
  /** TLS context with the trusted roots (built once by the caller); undefined keeps Node's. */
  readonly secureContext?: SecureContext;
  readonly now: number;
}

/** `CN=R11, O=Let's Encrypt, C=US` from Node's parsed distinguished name. */
function distinguishedName(name: PeerCertificate['issuer'] | undefined): string {
  if (name === undefined) return '';
  return Object.entries(name)
    .flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((item) => `${key}=${String(item)}`))
    .join(', ');
}

export function daysUntil(expiry: number, now: number): number {
  const diff = expiry - now;
  return diff >= 0 ? Math.floor(diff / DAY) : -Math.max(1, Math.floor(-diff / DAY));
}

/** `DNS:a.example, IP Address:192.0.2.1` → `['a.example', '192.0.2.1']`. */
export function subjectAltNames(text: string | undefined): string[] {
  if (text === undefined || text === '') return [];
  return text
    .split(/,\s*/)
    .map((entry) => entry.replace(/^(DNS|IP Address|URI|email):/i, '').trim())
    .filter((entry) => entry !== '');
}

/**
 * A TLS handshake that reads the leaf certificate and lets Node judge the chain and the name,
 * without refusing the connection: an invalid certificate is what we are here to report.
 */
export function inspectCertificate(options: InspectOptions): Promise<CertificateReport> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: options.address,
      port: options.port,
      servername: options.hostname,
      rejectUnauthorized: false,
      ...(options.secureContext === undefined ? {} : { secureContext: options.secureContext }),
    });
    let settled = false;
    const finish = (error: TlsInspectionError | undefined, report?: CertificateReport) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error !== undefined) reject(error);
      else resolve(report as CertificateReport);
    };
    const timer = setTimeout(
      () => finish(new TlsInspectionError(`no TLS handshake within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    socket.once('error', (error: NodeJS.ErrnoException) => finish(new TlsInspectionError(error.code ?? error.message)));
    socket.once('secureConnect', () => {
      const certificate = socket.getPeerCertificate(false);
      const validTo = Date.parse(certificate.valid_to ?? '');
      if (Number.isNaN(validTo)) return finish(new TlsInspectionError('no certificate presented'));
      const reason = socket.authorizationError as unknown;
      finish(undefined, {
        address: options.address,
        expiresAt: new Date(validTo).toISOString(),
        daysUntilExpiry: daysUntil(validTo, options.now),
        issuer: distinguishedName(certificate.issuer),
        subjectAltNames: subjectAltNames(certificate.subjectaltname),
        chainValid: socket.authorized,
        ...(socket.authorized || reason === undefined || reason === null
          ? {}
          : {
              validationError:
                reason instanceof Error
                  ? ((reason as NodeJS.ErrnoException).code ?? reason.message)
                  : String(reason as string),
            }),
      });
    });
  });
}
