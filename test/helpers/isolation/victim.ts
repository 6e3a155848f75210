/**
 * The victim tenant of the isolation scenario: an ordinary wallet on a few connections of its own, and the
 * peers its webhooks and pages live on. Each call it makes is timed from the client, as its user would see it.
 */
import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import { startHttpsReceiver } from '../https-receiver.js';
import type { HttpsReceiver, TestCertificates } from '../https-receiver.js';
import { fundedToken } from '../funded-token.js';
import { sleep } from '../wait.js';

export interface VictimClient {
  readonly url: string;
  readonly token: string;
  readonly dispatcher: Dispatcher;
}

/** The receiver of the victim's retried webhook: answers 503 when told to fail the next request, else 200; notes when each arrived. */
export interface RetryReceiver {
  readonly receiver: HttpsReceiver;
  readonly arrivals: ReadonlyArray<{ readonly at: number; readonly deliveryId: string }>;
  failNext(): void;
}

export interface VictimPeers {
  /** Answers every delivery 200 at once. */
  readonly tests: HttpsReceiver;
  readonly retries: RetryReceiver;
  /** An ordinary page: answers at once. */
  readonly pages: HttpsReceiver;
}

const NORMAL_PAGE =
  '<!doctype html><html><head><title>Normal page</title><meta name="description" content="an ordinary page"></head><body><h1>Hello</h1></body></html>';

export async function startVictimPeers(certificates: TestCertificates): Promise<VictimPeers> {
  const arrivals: Array<{ at: number; deliveryId: string }> = [];
  let failing = false;
  const retryReceiver = await startHttpsReceiver({
    certificates,
    responder: (req) => {
      arrivals.push({ at: Date.now(), deliveryId: String(req.headers['webhook-id'] ?? '') });
      const status = failing ? 503 : 200;
      failing = false;
      return { status, body: status === 503 ? 'busy' : 'ok' };
    },
  });
  return {
    tests: await startHttpsReceiver({ certificates }),
    retries: { receiver: retryReceiver, arrivals, failNext: () => (failing = true) },
    pages: await startHttpsReceiver({
      protocol: 'http',
      responder: (req) =>
        req.path.startsWith('/page')
          ? { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: NORMAL_PAGE }
          : { status: 404 },
    }),
  };
}

export async function closeVictimPeers(peers: VictimPeers | undefined): Promise<void> {
  await Promise.all([peers?.tests.close(), peers?.retries.receiver.close(), peers?.pages.close()]);
}

interface Answer {
  /** 0 when no answer came (refused, reset): a failed call, timed like the others. */
  readonly status: number;
  readonly text: string;
  /** From sending the request to the last byte of the answer. */
  readonly ms: number;
}

async function call(
  client: VictimClient,
  method: 'GET' | 'POST',
  path: string,
  body?: string,
  contentType?: string,
): Promise<Answer> {
  const started = performance.now();
  try {
    const answer = await request(`${client.url}${path}`, {
      method,
      dispatcher: client.dispatcher,
      headers: { 'x-token': client.token, ...(contentType === undefined ? {} : { 'content-type': contentType }) },
      body,
    });
    const text = await answer.body.text();
    return { status: answer.statusCode, text, ms: performance.now() - started };
  } catch (error) {
    return { status: 0, text: String(error), ms: performance.now() - started };
  }
}

const VICTIM_KEY = '/kv/victim/profile';

/** A funded victim wallet from `localAddress`, with a key to read and two webhooks: one for tests, one that retries once. */
export async function setUpVictim(
  url: string,
  options: { adminToken: string; localAddress: string; peers: VictimPeers },
): Promise<VictimClient> {
  const dispatcher = new Agent({ connections: 4, localAddress: options.localAddress });
  const token = await fundedToken(url, { adminToken: options.adminToken, amount: 1_000_000, dispatcher });
  const client: VictimClient = { url, token, dispatcher };
  const must = async (answer: Promise<Answer>, what: string): Promise<void> => {
    const { status, text } = await answer;
    if (status !== 200) throw new Error(`${what} answered ${status}: ${text}`);
  };
  await must(
    call(client, 'POST', VICTIM_KEY, 'the victim wallet keeps its profile here', 'text/plain'),
    'setting the victim key',
  );
  // Inactive schedules never fire: these webhooks serve only the tests the victim makes.
  const schedule = { cron: '0 0 * * *', timezone: 'UTC', active: false };
  const webhook = (webhookId: string, receiver: HttpsReceiver, retry?: { attempts: number }) =>
    must(
      call(
        client,
        'POST',
        '/webhook',
        JSON.stringify({ webhookId, url: receiver.url('/hook', '127.0.0.1'), schedule, retry }),
        'application/json',
      ),
      `creating the victim webhook ${webhookId}`,
    );
  await webhook('tested', options.peers.tests);
  await webhook('retried', options.peers.retries.receiver, { attempts: 2 });
  return client;
}

/** A GET /kv of the victim's key: its latency, and whether it answered the value. */
export async function kvRead(client: VictimClient): Promise<{ ms: number; ok: boolean }> {
  const answer = await call(client, 'GET', VICTIM_KEY);
  return { ms: answer.ms, ok: answer.status === 200 };
}

/** A test delivery to the receiver that answers at once: its latency, and whether it was delivered. */
export async function testDelivery(client: VictimClient): Promise<{ ms: number; ok: boolean }> {
  const answer = await call(client, 'POST', '/webhook/tested/test');
  return { ms: answer.ms, ok: answer.status === 200 && (JSON.parse(answer.text) as { success: boolean }).success };
}

let pageNumber = 0;

/** url-to-metadata of the ordinary page (a fresh URL each time, so nothing can answer from a cache). */
export async function pageMetadata(client: VictimClient, pages: HttpsReceiver): Promise<{ ms: number; ok: boolean }> {
  const answer = await call(
    client,
    'POST',
    '/url-to-metadata',
    JSON.stringify({ url: pages.url(`/page?n=${++pageNumber}`, '127.0.0.1') }),
    'application/json',
  );
  return { ms: answer.ms, ok: answer.status === 200 };
}

export interface RetryFigure {
  /** From when the retry was due (the delivery's `nextAttemptAt`) to when it reached the receiver; null: not within the wait. */
  readonly afterDueMs: number | null;
  /** When the failed first attempt was made, in ms since `since`. */
  readonly sentAtMs: number;
}

/**
 * A test delivery the receiver answers 503, then the wait for its retry (due DELIVERY_RETRY_BASE_MS later, ± jitter):
 * how long after it was due it arrived, waiting at most `waitMs` past due.
 */
export async function retryAfterFailure(
  client: VictimClient,
  receiver: RetryReceiver,
  options: { waitMs: number; since: number },
): Promise<RetryFigure> {
  const before = receiver.arrivals.length;
  receiver.failNext();
  const sentAtMs = Date.now() - options.since;
  await call(client, 'POST', '/webhook/retried/test');
  const first = receiver.arrivals[before];
  if (first === undefined) throw new Error('the victim test delivery never reached its receiver');
  const detail = await call(client, 'GET', `/webhook/retried/deliveries/${first.deliveryId}`);
  const nextAttemptAt =
    detail.status === 200 ? (JSON.parse(detail.text) as { nextAttemptAt: string | null }).nextAttemptAt : null;
  // Already retried by the time it was read: due no later than the base delay after the first attempt.
  const dueAt = nextAttemptAt === null ? first.at + 1000 : Date.parse(nextAttemptAt);
  for (;;) {
    const retried = receiver.arrivals.slice(before + 1).find((arrival) => arrival.deliveryId === first.deliveryId);
    if (retried !== undefined) return { afterDueMs: retried.at - dueAt, sentAtMs };
    if (Date.now() > dueAt + options.waitMs) return { afterDueMs: null, sentAtMs };
    await sleep(10);
  }
}

/** A timed call: when it was sent (epoch ms) and how long it took. */
export interface Sample {
  readonly at: number;
  readonly ms: number;
}

/** Polls `/healthz` every `everyMs` on a connection of its own until `until` (epoch ms): how long each poll waited for its answer. */
export async function pollHealth(
  url: string,
  everyMs: number,
  until: number,
): Promise<{ samples: Sample[]; failures: number }> {
  const dispatcher = new Agent({ connections: 1 });
  const samples: Sample[] = [];
  let failures = 0;
  try {
    while (Date.now() < until) {
      const at = Date.now();
      const started = performance.now();
      try {
        const answer = await request(`${url}/healthz`, { dispatcher });
        await answer.body.dump();
        if (answer.statusCode !== 200) failures += 1;
      } catch {
        failures += 1;
      }
      const waited = performance.now() - started;
      samples.push({ at, ms: waited });
      await sleep(Math.max(0, everyMs - waited));
    }
  } finally {
    await dispatcher.destroy();
  }
  return { samples, failures };
}

/** Runs `once` every `everyMs` (after `startAfterMs`) until `until`, one at a time: each result, with when it was started. */
export async function every<T>(
  everyMs: number,
  startAfterMs: number,
  until: number,
  once: () => Promise<T>,
): Promise<Array<T & { at: number }>> {
  const results: Array<T & { at: number }> = [];
  await sleep(startAfterMs);
  while (Date.now() < until) {
    const started = Date.now();
    results.push({ ...(await once()), at: started });
    await sleep(Math.max(0, everyMs - (Date.now() - started)));
  }
  return results;
}
