import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';

/** What a caller's `x-request-id` may be to be kept: short, and safe to echo in a header and print in a log line. */
const WELL_FORMED = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Fastify's `genReqId`: the caller's `x-request-id` when well-formed (a proxy's or client's id carries
 * through), else one of ours: an instance prefix and a counter, cheap and unique within the instance.
 * The same generator serves the answers written before any request exists, so every answer has an id.
 */
export function requestIds(): (request?: IncomingMessage) => string {
  const prefix = randomBytes(6).toString('base64url');
  let next = 0;
  return (request) => {
    // No request: an answer Node's parser refused before any request existed (before-routing.ts).
    const given = request?.headers['x-request-id'];
    if (typeof given === 'string' && WELL_FORMED.test(given)) return given;
    next++;
    return `${prefix}-${next.toString(36)}`;
  };
}
