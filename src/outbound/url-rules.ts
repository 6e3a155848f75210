import { ipFromUrlHost, type AddressPolicy } from './address-policy.js';
import { OutboundError } from './errors.js';

/**
 * Parse a target URL and apply the rules that need no network: syntax,
 * scheme, no credentials. Messages are 400-ready ("Invalid url: …").
 */
// eslint-disable-next-line no-control-regex -- control characters are among the code points refused
const FORBIDDEN_IN_DOMAIN = /[\u0000-\u0020#%/:<>?@[\\\]^|\u007f]/;

/** The longest callback URL a webhook or the low-balance webhook takes (their schemas' limit). */
export const MAX_CALLBACK_URL_LENGTH = 2048;
/** The schemas' words for a longer one, after `Invalid <field>: `. */
export const CALLBACK_URL_LENGTH_RULE = `must be at most ${MAX_CALLBACK_URL_LENGTH} characters`;

export function parseTargetUrl(raw: string, allowHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('invalid_url', 'Invalid url: must be a valid URL');
  }
  // WHATWG's forbidden domain code points, which Node's parser refuses; a browser's may keep them (Chromium takes
  // `https://exa mple.com/` as host `exa%20mple.com`), and the console runs this rule in a browser.
  if (!url.hostname.startsWith('[') && FORBIDDEN_IN_DOMAIN.test(url.hostname))
    throw new OutboundError('invalid_url', 'Invalid url: must be a valid URL');
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    const rule = allowHttp ? 'must be an http or https URL' : 'must be an https URL';
    // A well-formed http URL is the insecure case; ftp:, file:, data: … are just wrong.
    throw new OutboundError(url.protocol === 'http:' ? 'insecure_url' : 'invalid_url', `Invalid url: ${rule}`);
  }
  if (url.username !== '' || url.password !== '') {
    // Credentials in URLs end up in logs and in redirects to other origins.
    throw new OutboundError('invalid_url', 'Invalid url: must not contain credentials');
  }
  // Nothing listens on port 0: such a URL could be saved, and charged for, but never reached.
  if (url.port === '0') throw new OutboundError('invalid_url', 'Invalid url: port 0 is not a port');
  return url;
}

/** The IP literal of the URL's host, or null for a host name. */
export function literalIp(url: URL): string | null {
  return ipFromUrlHost(url.hostname);
}

/** Refuse, before any connection, a URL whose host is a refused IP literal. */
export function assertLiteralAllowed(url: URL, policy: AddressPolicy): void {
  const ip = literalIp(url);
  if (ip !== null && !policy.isAllowed(ip)) throw new OutboundError('refused_address', 'refused address');
}

/**
 * RFC 6761 reserves `localhost` and `*.localhost` for loopback whatever DNS
 * says; the save-time check treats them as such without asking a resolver.
 */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
