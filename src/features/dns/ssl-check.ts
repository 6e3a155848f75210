import type { SecureContext } from 'node:tls';
import type { AddressPolicy } from '../../outbound/address-policy.js';
import type { DnsRecord, QueryBudget } from '../../outbound/dns/dns-types.js';
import { addressesOf } from './reverse.js';
import type { RequestResolver } from './request-resolver.js';
import { inspectCertificate, TlsInspectionError } from '../../outbound/tls-probe.js';
import type { CertificateReport } from '../../outbound/tls-probe.js';

export const EXPIRY_WARNING_DAYS = 30;
/** However long the caller lets a DNS query take, a handshake gets at most this long. */
export const MAX_TLS_TIMEOUT_MS = 10_000;

export interface SslFields {
  readonly ssl_certificate_expires_at?: string;
  readonly ssl_days_until_expiry?: number;
  readonly ssl_issuer?: string;
  readonly ssl_subject_alt_names?: string[];
  readonly ssl_chain_valid?: boolean;
  readonly ssl_error?: string;
  readonly warnings: string[];
  readonly recommendations: string[];
}

export interface SslContext {
  readonly resolver: RequestResolver;
  readonly policy: AddressPolicy;
  readonly port: number;
  readonly secureContext?: SecureContext;
  readonly now: () => number;
  /** The request's deadline and packet cap: the handshake ends by the deadline and counts as a packet. */
  readonly budget?: QueryBudget;
}

/** The certificate report, or why no handshake was made or it failed. */
async function handshake(
  context: SslContext,
  domain: string,
  address: string,
  timeoutMs: number,
): Promise<CertificateReport | string> {
  const remaining = context.budget === undefined ? Infinity : context.budget.remainingMs();
  if (remaining <= 0) return 'the request deadline passed before the TLS handshake';
  if (context.budget !== undefined && !context.budget.takePacket())
    return 'the request packet limit was reached before the TLS handshake';
  try {
    const handshakeMs = Math.min(timeoutMs, MAX_TLS_TIMEOUT_MS, remaining);
    return await inspectCertificate({
      hostname: domain,
      address,
      port: context.port,
      timeoutMs: handshakeMs,
      secureContext: context.secureContext,
      now: context.now(),
    });
  } catch (error) {
    if (error instanceof TlsInspectionError) return error.message;
    throw error;
  }
}

const failed = (cause: string): SslFields => ({
  ssl_error: cause,
  warnings: [`SSL inspection failed: ${cause}`],
  recommendations: [],
});

/**
 * The certificate served on port 443 of a domain: connects to its first address (A before AAAA,
 * from the main lookup when it has them), which must pass the address policy.
 */
export async function inspectDomainCertificate(
  context: SslContext,
  domain: string,
  known: readonly DnsRecord[] | undefined,
  timeoutMs: number,
): Promise<SslFields> {
  let addresses = known === undefined ? [] : addressesOf(known);
  if (addresses.length === 0) {
    const [v4, v6] = await Promise.all([context.resolver.query(domain, 'A'), context.resolver.query(domain, 'AAAA')]);
    addresses = addressesOf([...(v4.ok ? v4.records : []), ...(v6.ok ? v6.records : [])]);
  }
  if (addresses.length === 0) return failed(`${domain} has no address`);
  const address = addresses.find((candidate) => context.policy.isAllowed(candidate));
  if (address === undefined) return failed(`${domain} resolves to a non-public address`);
  // The handshake waits for a slot like a query does (the request's bound, the wallet's share of the shared pool).
  const report = await context.resolver.bounded(() => handshake(context, domain, address, timeoutMs));
  if (typeof report === 'string') return failed(report);
  const warnings: string[] = [];
  const recommendations: string[] = [];
  const days = report.daysUntilExpiry;
  if (days < 0) {
    warnings.push(`SSL certificate expired ${-days} day${days === -1 ? '' : 's'} ago`);
    recommendations.push('Renew the SSL certificate now');
  } else if (days <= EXPIRY_WARNING_DAYS) {
    warnings.push(`SSL certificate expires in ${days} day${days === 1 ? '' : 's'}`);
    recommendations.push('Renew the SSL certificate before it expires');
  }
  if (!report.chainValid) {
    warnings.push(
      `SSL certificate did not validate${report.validationError === undefined ? '' : ` (${report.validationError})`}`,
    );
    recommendations.push(`Serve a certificate for ${domain} from a trusted CA, with its full chain`);
  }
  return {
    ssl_certificate_expires_at: report.expiresAt,
    ssl_days_until_expiry: days,
    ssl_issuer: report.issuer,
    ssl_subject_alt_names: report.subjectAltNames,
    ssl_chain_valid: report.chainValid,
    warnings,
    recommendations,
  };
}
