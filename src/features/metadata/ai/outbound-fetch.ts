import type { Outbound } from '../../../outbound/outbound-client.js';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A `fetch` for the openai client that goes through the outbound client, so AI calls get the same address
 * guard, CA settings, time limit and size cap as every other call the service makes.
 */
export function outboundFetch(outbound: Outbound, options: { timeoutMs: number; maxResponseBytes: number }): Fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'POST') throw new TypeError(`outbound fetch: unsupported method ${method}`);
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
      throw new TypeError('outbound fetch: only string and byte bodies are supported');
    }
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      // The outbound client hands bodies over as received: never ask for a compressed one.
      if (name !== 'accept-encoding') headers[name] = value;
    });
    const res = await outbound.request({
      url,
      method,
      headers,
      body: body ?? undefined,
      allowHttp: true,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
    });
    return new Response(NULL_BODY_STATUSES.has(res.status) ? null : new Uint8Array(res.body), {
      status: res.status,
      headers: res.headers,
    });
  };
}
