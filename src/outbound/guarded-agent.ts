import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { SecureContext } from 'node:tls';
import { Agent, buildConnector } from 'undici';
import type { AddressPolicy } from './address-policy.js';
import { GuardError } from './errors.js';

/** Resolves a host name to every address it has. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

export interface GuardedSessionOptions {
  policy: AddressPolicy;
  resolve: Resolver;
  /** TLS context with the trusted roots, built once per process; undefined keeps Node's defaults. */
  secureContext: SecureContext | undefined;
  /** Upper bound for TCP + TLS setup of one connection. */
  connectTimeoutMs: number;
  /** Passed to undici as headers/body idle timeouts; the caller's overall timer is the real limit. */
  idleTimeoutMs: number;
  /** Remember each origin's peer address for `remoteAddressFor` (off for a long-lived session, whose origins are unbounded). */
  trackRemotes?: boolean;
  /** How long an idle connection is kept (also the cap on the server's keep-alive hint); undici's defaults otherwise. */
  keepIdleMs?: number;
}

/**
 * An undici Agent whose every new connection is judged at connect time.
 *
 * Usually one per logical request (all of its redirect hops): undici does not
 * tell which socket served a response, and we report the address we actually
 * talked to; a short-lived Agent makes "the socket of this origin" unambiguous,
 * and redirects back to an origin still reuse its connection. Deliveries, which
 * report no address, share one long-lived session so their connections are kept.
 */
export interface GuardedSession {
  readonly agent: Agent;
  /** Address of the connection used for `url`'s origin, once connected. */
  remoteAddressFor(url: URL): string | undefined;
  close(): Promise<void>;
}

/**
 * undici's headers and body timers are coarse: its "fast timers" tick every half second and may fire up to about
 * that much early (a 0.8 s timeout was seen to cut at 0.71 s). The outbound client's own timer cuts a request at
 * exactly its timeout (docs/contract.md#deliveries: 10 s); undici's stay only as a backstop, a second later.
 */
const UNDICI_TIMER_SLACK_MS = 1000;

export function openGuardedSession(options: GuardedSessionOptions): GuardedSession {
  const remotes = new Map<string, string>();
  const base = buildConnector({
    timeout: options.connectTimeoutMs,
    // node:net calls this instead of dns.lookup for host names (never for IP
    // literals, which the wrapper below checks itself), so the address we
    // connect to is the address we judged: DNS rebinding has no second lookup
    // to slip into.
    lookup: guardedLookup(options.policy, options.resolve),
    ...(options.secureContext === undefined ? {} : { secureContext: options.secureContext }),
  });

  const connect: buildConnector.connector = (target, callback) => {
    if (isIP(target.hostname) !== 0 && !options.policy.isAllowed(target.hostname)) {
      callback(new GuardError('refused_address', `refused address ${target.hostname}`), null);
      return;
    }
    base(target, (err, socket) => {
      if (err !== null) {
        callback(err, null);
        return;
      }
      // Belt and braces: whatever path produced this socket, its peer must pass.
      const remote = socket.remoteAddress;
      if (remote === undefined || !options.policy.isAllowed(remote)) {
        socket.destroy();
        callback(new GuardError('refused_address', `refused address ${remote ?? '?'}`), null);
        return;
      }
      if (options.trackRemotes !== false)
        remotes.set(endpointKey(target.protocol, target.hostname, target.port), remote);
      callback(null, socket);
    });
  };

  const agent = new Agent({
    connect,
    headersTimeout: options.idleTimeoutMs + UNDICI_TIMER_SLACK_MS,
    bodyTimeout: options.idleTimeoutMs + UNDICI_TIMER_SLACK_MS,
    ...(options.keepIdleMs === undefined
      ? {}
      : { keepAliveTimeout: options.keepIdleMs, keepAliveMaxTimeout: options.keepIdleMs }),
  });

  return {
    agent,
    remoteAddressFor: (url) => remotes.get(endpointKey(url.protocol, stripBrackets(url.hostname), url.port)),
    close: async () => {
      await agent.destroy().catch(() => undefined);
    },
  };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function guardedLookup(policy: AddressPolicy, resolve: Resolver) {
  return (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback): void => {
    resolveAllowed(hostname, policy, resolve, wantedFamily(lookupOptions.family)).then(
      (addresses) => {
        const first = addresses[0];
        if (lookupOptions.all === true) callback(null, addresses);
        else if (first !== undefined) callback(null, first.address, first.family);
      },
      (err: unknown) => callback(err instanceof GuardError ? err : new GuardError('dns_failure', String(err)), ''),
    );
  };
}

async function resolveAllowed(
  hostname: string,
  policy: AddressPolicy,
  resolve: Resolver,
  family: 0 | 4 | 6,
): Promise<LookupAddress[]> {
  let resolved: Array<{ address: string; family: 4 | 6 }>;
  try {
    resolved = await resolve(hostname);
  } catch {
    throw new GuardError('dns_failure', `cannot resolve ${hostname}`);
  }
  const ofFamily = resolved.filter((entry) => family === 0 || entry.family === family);
  if (ofFamily.length === 0) throw new GuardError('dns_failure', `no address for ${hostname}`);
  // Only the permitted addresses go back to node:net, so it cannot fall back
  // to a refused one when a permitted one fails.
  const allowed = ofFamily.filter((entry) => policy.isAllowed(entry.address));
  if (allowed.length === 0) throw new GuardError('refused_address', `${hostname} resolves only to refused addresses`);
  return allowed.map((entry) => ({ address: entry.address, family: entry.family }));
}

function wantedFamily(family: LookupOptions['family']): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

function endpointKey(protocol: string, hostname: string, port: string): string {
  const effectivePort = port !== '' ? port : protocol === 'https:' ? '443' : '80';
  return `${protocol}//${hostname.toLowerCase()}:${effectivePort}`;
}

function stripBrackets(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
