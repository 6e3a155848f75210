import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { TrustedProxies } from '../http/client-identity.js';

/** What a proxy's `x-request-id` may be to be kept: short, and safe to echo in a header and print in a log line. */
const WELL_FORMED = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Fastify's `genReqId`: the `x-request-id` of a trusted proxy (TRUST_PROXY) when well-formed, so the proxy's id carries
 * through its logs and ours; else one of ours: an instance prefix and a counter, cheap and unique within the instance.
 * A client's own id is never taken: it could name another request's id and muddle the log of that one.
 * The same generator serves the answers written before any request exists, so every answer has an id.
 */
export function requestIds(trusted?: TrustedProxies): (request?: IncomingMessage) => string {
  const prefix = randomBytes(6).toString('base64url');
  let next = 0;
  return (request) => {
    // No request: an answer Node's parser refused before any request existed (before-routing.ts).
    const given = request?.headers['x-request-id'];
    if (typeof given === 'string' && WELL_FORMED.test(given) && fromTrustedProxy(request, trusted)) return given;
    next++;
    return `${prefix}-${next.toString(36)}`;
  };
}

function fromTrustedProxy(request: IncomingMessage | undefined, trusted: TrustedProxies | undefined): boolean {
  const peer = request?.socket.remoteAddress;
  return trusted !== undefined && peer !== undefined && trusted(peer, 0);
}
