import { lookup as dnsLookup } from 'node:dns/promises';
import { performance } from 'node:perf_hooks';
import { createSecureContext, rootCertificates } from 'node:tls';
import type { SecureContext } from 'node:tls';
import { createAddressPolicy } from './address-policy.js';
import type { AddressPolicy } from './address-policy.js';
import { classifyFailure, OutboundError } from './errors.js';
import { openGuardedSession, type GuardedSession, type Resolver } from './guarded-agent.js';
import { flattenHeaders, readCapped, sanitizeHeaders } from './http-parts.js';
import {
  DELIVERY_PORTABLE_HEADERS,
  nextHop,
  redirectLocation,
  REQUEST_PORTABLE_HEADERS,
  type Hop,
  type OutboundMethod,
} from './redirects.js';
import { assertLiteralAllowed, isLocalhostName, literalIp, parseTargetUrl } from './url-rules.js';

export { OutboundError, type OutboundErrorCode } from './errors.js';

/** Everything but which addresses to allow and which roots to trust. */
interface OutboundSettings {
  /** Name resolution; default node:dns lookup with all addresses. */
  lookup?: (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;
  /** e.g. coinop-webhook/0.1.0 */
  userAgent: string;
  /** Overall limit per request, covering every redirect and the body read. Default 10 000. */
  timeoutMs?: number;
  /** Default 10. */
  maxRedirects?: number;
  /** Default 1 MiB; beyond it the body is truncated and the rest never read. */
  maxResponseBytes?: number;
}

/** The guard and the roots built from the settings. */
export interface OutboundOptions extends OutboundSettings {
  /** OUTBOUND_ALLOW_CIDRS: ranges exempted from the non-public-address guard. */
  allowCidrs: readonly string[];
  /** Contents of OUTBOUND_CA_FILE, trusted in addition to the system roots. */
  extraCaPem?: string;
}

/** The guard and the roots already built, so deps shares one of each with the DNS lookup. */
export interface SharedTrustOptions extends OutboundSettings {
  policy: AddressPolicy;
  /** From trustedRoots; undefined keeps Node's roots. */
  secureContext: SecureContext | undefined;
}

/**
 * The system roots plus an extra CA (OUTBOUND_CA_FILE), or undefined for Node's own roots.
 * Passing `ca` replaces Node's roots, so the system roots go in explicitly. Build it once: a context
 * with every root costs ~18 ms of CPU, far too much to pay per delivery.
 */
export function trustedRoots(extraCaPem: string | undefined): SecureContext | undefined {
  return extraCaPem === undefined ? undefined : createSecureContext({ ca: [...rootCertificates, extraCaPem] });
}

export interface OutboundRequest {
  url: string;
  method?: OutboundMethod;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Default false: HTTPS only, for the first URL and every redirect. */
  allowHttp?: boolean;
  maxResponseBytes?: number;
  timeoutMs?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  finalUrl: string;
  redirects: number;
  elapsedMs: number;
  remoteAddress?: string;
}

/** `responseExcerpt`: the start of the receiver's answer (at most DELIVERY_EXCERPT_BYTES of UTF-8), when one came. */
export type DeliveryResult =
  | { ok: true; status: number; elapsedMs: number; responseExcerpt?: string }
  | { ok: false; status?: number; cause: string; elapsedMs: number; responseExcerpt?: string };

export interface Outbound {
  /** Throws OutboundError. */
  request(req: OutboundRequest): Promise<OutboundResponse>;
  /**
   * POST `json` (already serialised, so signed bytes are the bytes sent) as application/json; success only on 2xx;
   * never throws. A redirect to another origin keeps only our content-type and user-agent and the `portable` headers
   * the caller names (a signature of the very bytes sent: no secret, and what a receiver that moved needs to verify).
   */
  deliverJson(
    url: string,
    json: string,
    headers?: Record<string, string>,
    portable?: readonly string[],
  ): Promise<DeliveryResult>;
  /** Save-time check; throws OutboundError whose message is a 400 body. */
  checkUrl(url: string, opts?: { allowHttp?: boolean }): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_REDIRECTS = 10;
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
// A delivery only needs the status; keep little of whatever the receiver says.
const DELIVERY_RESPONSE_BYTES = 64 * 1024;
/** How much of a receiver's answer a delivery keeps for its attempt history (out of what it reads anyway). */
export const DELIVERY_EXCERPT_BYTES = 1024;
// Bodies of redirect responses are read this far so the connection can be reused.
const REDIRECT_BODY_BYTES = 64 * 1024;
const CHECK_LOOKUP_TIMEOUT_MS = 5_000;
/** How long an idle delivery connection is kept for the next delivery (bursts: a minute's schedules, a mail batch). */
const DELIVERY_KEEP_IDLE_MS = 1_000;
const LOCALHOST_ADDRESSES = ['127.0.0.1', '::1'];

/** The headers a delivery keeps across origins for each list its callers pass (one list a caller: made once). */
const NOTHING_PORTABLE: readonly string[] = [];
const portableSets = new WeakMap<readonly string[], ReadonlySet<string>>();

function portableFor(names: readonly string[]): ReadonlySet<string> {
  let set = portableSets.get(names);
  if (set === undefined) {
    set = new Set([...DELIVERY_PORTABLE_HEADERS, ...names.map((name) => name.toLowerCase())]);
    portableSets.set(names, set);
  }
  return set;
}

export function createOutbound(options: OutboundOptions | SharedTrustOptions): Outbound {
  const { policy, secureContext } =
    'policy' in options
      ? options
      : { policy: createAddressPolicy(options.allowCidrs), secureContext: trustedRoots(options.extraCaPem) };
  const resolve: Resolver = options.lookup ?? systemResolve;
  const sessions = new Set<GuardedSession>();
  let closed = false;
  // Deliveries go to the same receivers again and again (a team's Slack hook, a cron target): one long-lived
  // session keeps their connections, saving a TCP and TLS handshake per call. Each new connection is still
  // judged at connect time, and an open one stays with the address that was judged. Idle connections are kept
  // only briefly: a delivery is never retried (docs/contract.md#deliveries), so sending on a connection the receiver is closing at that
  // very moment must stay rare; servers that close idle connections sooner than a second are rarer still.
  let deliveries: GuardedSession | undefined;
  const deliverySession = (): GuardedSession => {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    deliveries ??= openGuardedSession({
      policy,
      resolve,
      secureContext,
      connectTimeoutMs: timeoutMs,
      idleTimeoutMs: timeoutMs,
      trackRemotes: false,
      keepIdleMs: DELIVERY_KEEP_IDLE_MS,
    });
    return deliveries;
  };

  function request(req: OutboundRequest): Promise<OutboundResponse> {
    return send(req, undefined, REQUEST_PORTABLE_HEADERS);
  }

  /**
   * `shared`: a long-lived session to use (and keep open); otherwise one is opened for this request and closed after it.
   * `portable`: the headers a redirect to another origin keeps (redirects.ts).
   */
  async function send(
    req: OutboundRequest,
    shared: GuardedSession | undefined,
    portable: ReadonlySet<string>,
  ): Promise<OutboundResponse> {
    const started = performance.now();
    const timeoutMs = req.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const cap = req.maxResponseBytes ?? options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const allowHttp = req.allowHttp ?? false;
    if (closed) throw new OutboundError('connect_failed', 'connection failed');

    const url = parseTargetUrl(req.url, allowHttp);
    assertLiteralAllowed(url, policy);
    const headers = { 'user-agent': options.userAgent, ...sanitizeHeaders(req.headers) };
    let hop: Hop = { url, method: req.method ?? 'GET', headers, body: req.body, portable };

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const session =
      shared ??
      openGuardedSession({ policy, resolve, secureContext, connectTimeoutMs: timeoutMs, idleTimeoutMs: timeoutMs });
    if (shared === undefined) sessions.add(session);
    // Set false at each hop and true once its response head arrived; read when the request fails.
    let gotResponse: boolean | undefined;
    try {
      for (let redirects = 0; ; redirects += 1) {
        gotResponse = false;
        const res = await session.agent.request({
          origin: hop.url.origin,
          path: `${hop.url.pathname}${hop.url.search}`,
          method: hop.method,
          headers: hop.headers,
          body: hop.body ?? null,
          signal: controller.signal,
        });
        gotResponse = true;
        const location = redirectLocation(res.statusCode, res.headers.location);
        if (location === null) {
          const { body, truncated } = await readCapped(res.body, cap);
          return {
            status: res.statusCode,
            headers: flattenHeaders(res.headers),
            body,
            truncated,
            finalUrl: hop.url.href,
            redirects,
            elapsedMs: elapsedSince(started),
            remoteAddress: session.remoteAddressFor(hop.url),
          };
        }
        await res.body.dump({ limit: REDIRECT_BODY_BYTES });
        if (redirects >= maxRedirects) throw new OutboundError('too_many_redirects', 'too many redirects');
        // Each hop is judged afresh: literal IPs here, names at connect time.
        hop = nextHop(hop, res.statusCode, location, allowHttp);
        assertLiteralAllowed(hop.url, policy);
      }
    } catch (err) {
      throw classifyFailure(err, { timedOut, timeoutMs, gotResponse: gotResponse === true });
    } finally {
      clearTimeout(timer);
      if (shared === undefined) {
        sessions.delete(session);
        await session.close();
      }
    }
  }

  async function deliverJson(
    url: string,
    json: string,
    headers?: Record<string, string>,
    portable: readonly string[] = NOTHING_PORTABLE,
  ): Promise<DeliveryResult> {
    const started = performance.now();
    try {
      const res = await send(
        {
          url,
          method: 'POST',
          // Ours last: the receiver must be told the truth about the body.
          headers: { ...sanitizeHeaders(headers), 'content-type': 'application/json', 'user-agent': options.userAgent },
          body: json,
          maxResponseBytes: Math.min(DELIVERY_RESPONSE_BYTES, options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES),
        },
        closed ? undefined : deliverySession(),
        portableFor(portable),
      );
      const elapsedMs = elapsedSince(started);
      const responseExcerpt = excerptOf(res.body);
      if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status, elapsedMs, responseExcerpt };
      return { ok: false, status: res.status, cause: `HTTP ${res.status}`, elapsedMs, responseExcerpt };
    } catch (err) {
      return { ok: false, cause: deliveryCause(err), elapsedMs: elapsedSince(started) };
    }
  }

  async function checkUrl(raw: string, opts?: { allowHttp?: boolean }): Promise<void> {
    const url = parseTargetUrl(raw, opts?.allowHttp ?? false);
    const refused = new OutboundError('refused_address', 'Invalid url: refused address');
    const ip = literalIp(url);
    if (ip !== null) {
      if (!policy.isAllowed(ip)) throw refused;
      return;
    }
    const addresses = isLocalhostName(url.hostname)
      ? LOCALHOST_ADDRESSES
      : await resolveQuietly(
          resolve,
          url.hostname,
          Math.min(CHECK_LOOKUP_TIMEOUT_MS, options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        );
    // A name that does not resolve now is accepted: DNS may be down or not yet
    // set up, and the connect-time guard judges whatever it resolves to later.
    if (addresses.length > 0 && !addresses.some((address) => policy.isAllowed(address))) throw refused;
  }

  async function close(): Promise<void> {
    closed = true;
    await Promise.all(
      [...sessions, ...(deliveries === undefined ? [] : [deliveries])].map((session) => session.close()),
    );
  }

  return { request, deliverJson, checkUrl, close };
}

async function systemResolve(hostname: string): Promise<Array<{ address: string; family: 4 | 6 }>> {
  const entries = await dnsLookup(hostname, { all: true, verbatim: true });
  return entries.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
}

async function resolveQuietly(resolve: Resolver, hostname: string, timeoutMs: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((done) => {
    timer = setTimeout(() => done([]), timeoutMs);
  });
  const lookup = resolve(hostname).then(
    (entries) => entries.map((entry) => entry.address),
    () => [],
  );
  try {
    return await Promise.race([lookup, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function deliveryCause(err: unknown): string {
  if (!(err instanceof OutboundError)) return 'delivery failed';
  if (err.code === 'invalid_url') return 'invalid url';
  if (err.code === 'insecure_url') return 'insecure url';
  return err.message;
}

/**
 * The first DELIVERY_EXCERPT_BYTES of an answer as text: a character cut at the end is left out, and U+0000 (which
 * PostgreSQL text cannot hold) shows as U+FFFD.
 */
function excerptOf(body: Buffer): string {
  const text = new TextDecoder('utf-8').decode(body.subarray(0, DELIVERY_EXCERPT_BYTES), { stream: true });
  return text.replaceAll('\u0000', '\ufffd');
}

function elapsedSince(started: number): number {
  return Math.round(performance.now() - started);
}
