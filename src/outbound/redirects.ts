import { OutboundError } from './errors.js';

export type OutboundMethod = 'GET' | 'POST' | 'HEAD';

/** What is sent on one hop. */
export interface Hop {
  url: URL;
  method: OutboundMethod;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** The header names that may follow a redirect to another origin; every other header is dropped there. */
  portable: ReadonlySet<string>;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

// Headers that describe a body; meaningless once a redirect drops the body.
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location'];
/**
 * Headers of `request()` that cross origins: only ones the service sets that describe the request and carry
 * no secret. Anything else (authorization, cookies, an API key of the AI provider, …) was meant for the first
 * origin, not for wherever it points us.
 */
export const REQUEST_PORTABLE_HEADERS: ReadonlySet<string> = new Set([
  'user-agent',
  'accept',
  'accept-language',
  ...BODY_HEADERS,
]);

/**
 * Headers of a delivery that cross origins, besides those its caller names (`deliverJson`'s `portable`: the
 * signature, which delivery-core writes): our content-type and user-agent. Every caller-supplied header (a webhook's
 * `x-api-key`, `authorization`, …) stays with the origin it was saved for.
 */
export const DELIVERY_PORTABLE_HEADERS: readonly string[] = ['content-type', 'user-agent'];

/** The Location to follow, or null when the response is final. */
export function redirectLocation(status: number, location: string | string[] | undefined): string | null {
  if (!REDIRECT_STATUSES.has(status)) return null;
  const value = Array.isArray(location) ? location[0] : location;
  // A 3xx without a usable Location is the final answer, as in browsers.
  return value === undefined || value === '' ? null : value;
}

/**
 * The next hop after a redirect, following the fetch standard's method rules:
 * 307/308 keep method and body; 303 turns anything but HEAD into GET; 301/302
 * turn POST into GET. An https→http hop is refused unless http is allowed. A hop to another
 * origin keeps only the `portable` headers.
 */
export function nextHop(current: Hop, status: number, location: string, allowHttp: boolean): Hop {
  let url: URL;
  try {
    url = new URL(location, current.url);
  } catch {
    throw new OutboundError('response_error', 'invalid redirect');
  }
  if (url.protocol === 'http:' && !allowHttp) throw new OutboundError('insecure_redirect', 'insecure redirect');
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new OutboundError('response_error', 'invalid redirect');
  if (url.username !== '' || url.password !== '') throw new OutboundError('response_error', 'invalid redirect');

  const headers = { ...current.headers };
  let { method, body } = current;
  const toGet = (status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST');
  if (toGet) {
    method = 'GET';
    body = undefined;
    for (const name of BODY_HEADERS) delete headers[name];
  }
  // Origin = scheme, host and port: another port of the same host is another origin.
  if (url.origin !== current.url.origin) {
    for (const name of Object.keys(headers)) if (!current.portable.has(name)) delete headers[name];
  }
  return { url, method, headers, body, portable: current.portable };
}
