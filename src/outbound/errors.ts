/** Why an outbound request did not produce a response. */
export type OutboundErrorCode =
  | 'invalid_url'
  | 'insecure_url'
  | 'refused_address'
  | 'dns_failure'
  | 'timeout'
  | 'too_many_redirects'
  | 'insecure_redirect'
  | 'connect_failed'
  | 'tls_error'
  | 'response_error';

/**
 * `message` is short and safe to show: from request() it is the delivery
 * cause (`refused address`, `timeout after 10s`, …); from checkUrl() a 400
 * body (`Invalid url: must be an https URL`).
 */
export class OutboundError extends Error {
  readonly code: OutboundErrorCode;

  constructor(code: OutboundErrorCode, message: string) {
    super(message);
    this.name = 'OutboundError';
    this.code = code;
  }
}

/**
 * Raised inside the connector (lookup or post-connect check). It travels
 * through node:net and undici untouched, and is turned into an OutboundError
 * by the client.
 */
export class GuardError extends Error {
  readonly code: 'refused_address' | 'dns_failure';

  constructor(code: 'refused_address' | 'dns_failure', message: string) {
    super(message);
    this.name = 'GuardError';
    this.code = code;
  }
}

/** `timeout after 10s`, `timeout after 0.3s`: the real limit, in seconds. */
export function timeoutCause(timeoutMs: number): string {
  return `timeout after ${Number((timeoutMs / 1000).toFixed(3))}s`;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA', 'ESERVFAIL']);
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
// Node's TLS layer reports verification failures with OpenSSL's names
// (CERT_HAS_EXPIRED, UNABLE_TO_VERIFY_LEAF_SIGNATURE, DEPTH_ZERO_SELF_SIGNED_CERT, …)
// and protocol failures as ERR_SSL_* / ERR_TLS_*.
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_)|SELF_SIGNED|INVALID_CA|HOSTNAME_MISMATCH/;

/**
 * Map whatever undici/node threw to our codes. `gotResponse` tells a failure
 * while reading an answer apart from one while reaching the server.
 */
export function classifyFailure(
  err: unknown,
  context: { timedOut: boolean; timeoutMs: number; gotResponse: boolean },
): OutboundError {
  if (err instanceof OutboundError) return err;
  if (context.timedOut) return new OutboundError('timeout', timeoutCause(context.timeoutMs));
  const guard = findGuardError(err);
  if (guard !== null) {
    return guard.code === 'refused_address'
      ? new OutboundError('refused_address', 'refused address')
      : new OutboundError('dns_failure', 'DNS lookup failed');
  }
  const code = errorCode(err);
  if (TIMEOUT_CODES.has(code)) return new OutboundError('timeout', timeoutCause(context.timeoutMs));
  if (DNS_CODES.has(code)) return new OutboundError('dns_failure', 'DNS lookup failed');
  if (TLS_CODE.test(code)) return new OutboundError('tls_error', 'TLS error');
  if (context.gotResponse || code.startsWith('HPE_')) return new OutboundError('response_error', 'invalid response');
  return new OutboundError('connect_failed', 'connection failed');
}

function errorCode(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') return err.code;
  return '';
}

// Node or undici may wrap the original error (AggregateError from
// happy-eyeballs, `cause` chains), so look a little deeper.
function findGuardError(err: unknown, depth = 0): GuardError | null {
  if (err instanceof GuardError) return err;
  if (depth > 3 || typeof err !== 'object' || err === null) return null;
  if (err instanceof AggregateError) {
    for (const inner of err.errors) {
      const found = findGuardError(inner, depth + 1);
      if (found !== null) return found;
    }
  }
  return 'cause' in err ? findGuardError(err.cause, depth + 1) : null;
}
