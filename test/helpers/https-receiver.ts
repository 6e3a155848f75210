/**
 * A real HTTPS (or HTTP) peer on 127.0.0.1 for tests that make the service
 * call out: webhook deliveries, low-balance webhooks, URL metadata fetches.
 *
 *   const certs = createTestCertificates();          // CA + cert for localhost/127.0.0.1/::1
 *   const receiver = await startHttpsReceiver({ certificates: certs });
 *   receiver.enqueue({ status: 500 });               // next answer; then the default responder
 *   const outbound = createOutbound({ allowCidrs: ['127.0.0.0/8', '::1/128'], extraCaPem: certs.caPem,
 *                                     lookup: localhostLookup, userAgent: 'test' });
 *   await outbound.deliverJson(receiver.url('/hook'), '{"a":1}');
 *   const [req] = await receiver.waitForRequests(1);
 *   await receiver.close();
 *
 * Certificates come from certificates.ts.
 */
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority } from './certificates.js';

export interface TestCertificates {
  /** PEM of the CA that signed `certPem`; hand it to `extraCaPem`. */
  caPem: string;
  /** Server certificate for DNS:localhost, IP:127.0.0.1, IP:::1. */
  certPem: string;
  keyPem: string;
}

export interface ReceivedRequest {
  method: string;
  /** Path with query string, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (the socket stays open until the client gives up or close()). */
  hang?: boolean;
  /** After the headers, write `chunk` every `intervalMs`, `count` times (default: until the client leaves). */
  drip?: { chunk: string | Buffer; intervalMs: number; count?: number };
}

export type Responder = (req: ReceivedRequest) => ScriptedResponse | Promise<ScriptedResponse>;

export interface HttpsReceiver {
  readonly port: number;
  /** `https://localhost:<port>` (or http://). */
  readonly origin: string;
  readonly certificates: TestCertificates | undefined;
  /** Every request received, in order. */
  readonly requests: ReceivedRequest[];
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** URL on this receiver; host `localhost` (needs a lookup) or `127.0.0.1`. */
  url(path?: string, host?: 'localhost' | '127.0.0.1'): string;
  /** Default answer for requests with no queued response. Initially 200 `ok`. */
  respondWith(responder: Responder | ScriptedResponse): void;
  /** One-shot answers, used in order before the default one. */
  enqueue(...responses: Array<ScriptedResponse | Responder>): void;
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** Default: fresh certificates from createTestCertificates(). Ignored for http. */
  certificates?: TestCertificates;
  protocol?: 'https' | 'http';
  responder?: Responder | ScriptedResponse;
}

/** A fresh CA and a server certificate it signed for localhost and its loopback addresses, valid for two days. */
export function createTestCertificates(): TestCertificates {
  const ca = createCertificateAuthority();
  return { caPem: ca.caPem, ...ca.issue({ names: ['localhost', '127.0.0.1', '::1'], days: 2 }) };
}

/** An `OutboundOptions.lookup` that knows only `localhost` (as 127.0.0.1). */
export async function localhostLookup(hostname: string): Promise<Array<{ address: string; family: 4 | 6 }>> {
  if (hostname.toLowerCase().replace(/\.$/, '') === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
}

export async function startHttpsReceiver(options: ReceiverOptions = {}): Promise<HttpsReceiver> {
  const protocol = options.protocol ?? 'https';
  const certificates = protocol === 'https' ? (options.certificates ?? createTestCertificates()) : undefined;
  const requests: ReceivedRequest[] = [];
  const queue: Array<ScriptedResponse | Responder> = [];
  let fallback: ScriptedResponse | Responder = options.responder ?? { status: 200, body: 'ok' };
  const waiters = new Set<() => void>();

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        text: body.toString('utf8'),
      };
      requests.push(received);
      for (const wake of waiters) wake();
      const script = queue.shift() ?? fallback;
      Promise.resolve(typeof script === 'function' ? script(received) : script)
        .then((response) => answer(res, response))
        .catch(() => res.destroy());
    });
  };

  const server: Server =
    certificates === undefined
      ? createHttpServer(handle)
      : createHttpsServer({ cert: certificates.certPem, key: certificates.keyPem }, handle);
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    get connections() {
      return connections;
    },
    origin: `${protocol}://localhost:${port}`,
    certificates,
    requests,
    url: (path = '/', host = 'localhost') => `${protocol}://${host}:${port}${path}`,
    respondWith: (responder) => {
      fallback = responder;
    },
    enqueue: (...responses) => {
      queue.push(...responses);
    },
    waitForRequests: (count, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (requests.length < count) return;
          cleanup();
          resolve(requests.slice(0, count));
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`expected ${count} requests, got ${requests.length}`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hanging and dripping responses would otherwise keep close() waiting.
        server.closeAllConnections();
      }),
  };
}

function answer(res: ServerResponse, response: ScriptedResponse): void {
  if (response.hang === true) return;
  const send = (): void => {
    if (res.destroyed) return;
    res.writeHead(response.status ?? 200, response.headers);
    if (response.drip === undefined) {
      res.end(response.body);
      return;
    }
    const { chunk, intervalMs, count } = response.drip;
    let sent = 0;
    const timer = setInterval(() => {
      if (res.destroyed || (count !== undefined && sent >= count)) {
        clearInterval(timer);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(chunk);
      sent += 1;
    }, intervalMs);
    res.on('close', () => clearInterval(timer));
  };
  if (response.delayMs === undefined) send();
  else setTimeout(send, response.delayMs);
}

/** How many requests to a slow path are being answered now, and the most at once so far. */
export interface SlowAnswers {
  now: number;
  most: number;
}

/**
 * Makes `receiver` answer requests to `/slow` after `ms` (every other path 200 at once), counting the requests it holds:
 * what the fair-share tests read to see how many slots one wallet's work took.
 */
export function answerSlowPathLate(receiver: HttpsReceiver, ms: number): SlowAnswers {
  const slow: SlowAnswers = { now: 0, most: 0 };
  receiver.respondWith(async (request) => {
    if (request.path === '/slow') {
      slow.now += 1;
      slow.most = Math.max(slow.most, slow.now);
      await new Promise((resolve) => setTimeout(resolve, ms));
      slow.now -= 1;
    }
    return { status: 200, body: 'ok' };
  });
  return slow;
}
