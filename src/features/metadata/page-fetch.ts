import type { Outbound, OutboundResponse } from '../../outbound/outbound-client.js';
import { OutboundError } from '../../outbound/outbound-client.js';
import { checkPageUrl, pageUrlWording } from './page-url-rules.js';
import { ApiError, errors } from '../../errors.js';
import type { AddressPolicy } from '../../outbound/address-policy.js';
import { literalIp } from '../../outbound/url-rules.js';

/** Pages are read up to this many bytes; the rest is never downloaded (`technical.truncated`). */
const MAX_PAGE_BYTES = 2 * 1024 * 1024;

export interface FetchedPage extends OutboundResponse {
  /** Lower-cased media type without parameters, sniffed when the server sent none. */
  mimeType: string;
  charset?: string;
  finalUrlParsed: URL;
}

/** A target URL as the caller gave it: the outbound client's own rules (absolute, http or https, no credentials), or 400. */
export function parsePageUrl(raw: string): URL {
  const checked = checkPageUrl(raw);
  if (!checked.ok) throw errors.badRequest(checked.error);
  return checked.url;
}

/** The rule a page URL breaks when its host is an address the service does not connect to. */
const REFUSED_ADDRESS_RULE = 'refused address (not a public address)';

/**
 * The 400 of a page URL whose host is an IP address the policy refuses, or null: known before any connection (the
 * fetch would be refused at connect time in the same words), so a tool can refuse it before the call is charged.
 */
export function refusedPageAddress(url: URL, policy: Pick<AddressPolicy, 'isAllowed'>): string | null {
  const ip = literalIp(url);
  return ip !== null && !policy.isAllowed(ip) ? `Invalid url: ${REFUSED_ADDRESS_RULE}` : null;
}

/** Why the page could not be fetched, as the caller should hear it: 400 when it is the URL's fault, else 502. */
function fetchFailure(error: unknown): ApiError {
  if (!(error instanceof OutboundError)) return errors.badGateway('Could not fetch the URL: connection failed');
  switch (error.code) {
    case 'invalid_url':
    case 'insecure_url':
      return errors.badRequest(pageUrlWording(error.message));
    case 'refused_address':
      return errors.invalidField('url', REFUSED_ADDRESS_RULE);
    default:
      return errors.badGateway(`Could not fetch the URL: ${error.message}`);
  }
}

function sniffMimeType(body: Buffer): string {
  const head = body
    .subarray(0, 1024)
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html') || /<(head|body)[\s>]/.test(head))
    return 'text/html';
  if (head.startsWith('<?xml')) return 'application/xml';
  if (head.startsWith('%pdf-')) return 'application/pdf';
  return 'application/octet-stream';
}

function parseContentType(value: string | undefined, body: Buffer): { mimeType: string; charset?: string } {
  const [type = '', ...params] = (value ?? '').split(';');
  const mimeType = type.trim().toLowerCase();
  const charset = params
    .map((param) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(param)?.[1])
    .find((found) => found !== undefined);
  return { mimeType: mimeType === '' ? sniffMimeType(body) : mimeType, charset };
}

export function isHtml(mimeType: string): boolean {
  return mimeType === 'text/html' || mimeType === 'application/xhtml+xml';
}

/**
 * GET the page through the outbound client: public addresses only (checked at connect time and on every
 * redirect), http and https both accepted, the outbound client's overall time limit, a byte cap.
 * A final status other than 2xx is a failure of the site (502).
 */
export async function fetchPage(outbound: Outbound, url: URL, headers: Record<string, string>): Promise<FetchedPage> {
  let res: OutboundResponse;
  try {
    res = await outbound.request({
      url: url.href,
      method: 'GET',
      allowHttp: true,
      maxResponseBytes: MAX_PAGE_BYTES,
      headers,
    });
  } catch (error) {
    throw fetchFailure(error);
  }
  if (res.status < 200 || res.status > 299)
    throw errors.badGateway(`Could not fetch the URL: the site answered HTTP ${res.status}`);
  return { ...res, ...parseContentType(res.headers['content-type'], res.body), finalUrlParsed: new URL(res.finalUrl) };
}
