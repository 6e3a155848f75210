/**
 * The hostile tenant of the isolation scenario, run as a process of its own (`node --import tsx`, forked by
 * scenario.ts with an IPC channel): its own CPU and event loop, like another client machine, so its load
 * does not slow the victim's measuring client. It owns its peers (a webhook receiver that accepts and never
 * answers, a page server whose pages answer after 9 s), its wallet, and a bounded pool of connections.
 */
import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import { startHttpsReceiver } from '../https-receiver.js';
import type { HttpsReceiver } from '../https-receiver.js';
import { fundedToken } from '../funded-token.js';
import { sleep } from '../wait.js';
import type { FromHostile, HostileMix, HostileReport, StatusTally, ToHostile } from './protocol.js';

type Setup = Extract<ToHostile, { type: 'setup' }>;

const send = (message: FromHostile): void => {
  process.send?.(message);
};

const SLOW_PAGE =
  '<!doctype html><html><head><title>Slow page</title><meta name="description" content="answers late"></head><body>late</body></html>';
const KV_VALUE = 'x'.repeat(1000);

/** Delivery ids the never-answering receiver has seen: a second request with one of them is a retry. */
interface RetryWatch {
  readonly seen: Set<string>;
  retries: number;
}

interface Peers {
  readonly webhook: HttpsReceiver;
  readonly pages: HttpsReceiver;
  readonly watch: RetryWatch;
}

async function startPeers(setup: Setup): Promise<Peers> {
  const watch: RetryWatch = { seen: new Set(), retries: 0 };
  const webhook = await startHttpsReceiver({
    certificates: setup.certificates,
    responder: (req) => {
      const id = String(req.headers['webhook-id'] ?? '');
      if (watch.seen.has(id)) {
        watch.retries += 1;
        if (watch.retries === 1) send({ type: 'retries-in-flight' });
      } else watch.seen.add(id);
      return { hang: true };
    },
  });
  const pages = await startHttpsReceiver({
    protocol: 'http',
    responder: (req) =>
      req.path.startsWith('/slow')
        ? {
            status: 200,
            headers: { 'content-type': 'text/html; charset=utf-8' },
            body: SLOW_PAGE,
            delayMs: setup.mix.slowPageMs,
          }
        : { status: 404, body: 'not found' },
  });
  return { webhook, pages, watch };
}

interface Wallet {
  readonly url: string;
  readonly token: string;
}

interface Call {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  readonly contentType?: string;
  readonly accept?: string;
}

/** One call; its status, or `error` when no answer came (refused, reset, or aborted at the end of the attack). */
async function attempt(wallet: Wallet, dispatcher: Dispatcher, call: Call, signal: AbortSignal): Promise<string> {
  try {
    const answer = await request(`${wallet.url}${call.path}`, {
      method: call.method,
      dispatcher,
      signal,
      headers: {
        'x-token': wallet.token,
        ...(call.contentType === undefined ? {} : { 'content-type': call.contentType }),
        ...(call.accept === undefined ? {} : { accept: call.accept }),
      },
      body: call.body,
      headersTimeout: 120_000,
      bodyTimeout: 120_000,
    });
    await answer.body.dump();
    return String(answer.statusCode);
  } catch {
    return 'error';
  }
}

/**
 * After a refusal (429, 503) a loop waits this long before its next call: the flood is of costly work, and the
 * KV writers already load the service with cheap calls back to back; a tight loop of free refusals would only
 * measure how fast the service refuses.
 */
const PAUSE_AFTER_REFUSAL_MS = 50;

/** `connections` loops, each making `next()`'s call again as soon as the last one answered, until `signal` aborts. */
async function flood(
  connections: number,
  localAddress: string,
  wallet: Wallet,
  next: () => Call,
  signal: AbortSignal,
): Promise<StatusTally> {
  const tally: StatusTally = {};
  if (connections === 0) return tally;
  const agent = new Agent({ connections, localAddress });
  const loop = async (): Promise<void> => {
    while (!signal.aborted) {
      const status = await attempt(wallet, agent, next(), signal);
      if (signal.aborted) break;
      tally[status] = (tally[status] ?? 0) + 1;
      if (status === '429' || status === '503') await sleep(PAUSE_AFTER_REFUSAL_MS);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  await agent.destroy();
  return tally;
}

function mcpBatch(mix: HostileMix, slowPage: () => string, kvKey: () => string): string {
  const tool = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });
  const calls = [
    ...Array.from({ length: mix.mcpBatch.webhookTests }, () => tool('webhook_test', { webhookId: 'flood' })),
    ...Array.from({ length: mix.mcpBatch.slowMetadata }, () => tool('url_metadata', { url: slowPage() })),
    ...Array.from({ length: mix.mcpBatch.kvWrites }, () =>
      tool('kv_set', { bucket: 'flood', key: kvKey(), value: KV_VALUE }),
    ),
  ];
  return JSON.stringify(calls.map((params, id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params })));
}

async function setUp(setup: Setup, peers: Peers): Promise<Wallet> {
  const dispatcher = new Agent({ connections: 1, localAddress: setup.localAddress });
  try {
    const token = await fundedToken(setup.serviceUrl, {
      adminToken: setup.adminToken,
      amount: setup.credits,
      dispatcher,
    });
    const created = await request(`${setup.serviceUrl}/webhook`, {
      method: 'POST',
      dispatcher,
      headers: { 'x-token': token, 'content-type': 'application/json' },
      // An inactive schedule never fires: the webhook only serves tests, each with the most retries a webhook may ask for.
      body: JSON.stringify({
        webhookId: 'flood',
        url: peers.webhook.url('/hook', '127.0.0.1'),
        schedule: { cron: '0 0 * * *', timezone: 'UTC', active: false },
        retry: { attempts: 8 },
      }),
    });
    const text = await created.body.text();
    if (created.statusCode !== 200)
      throw new Error(`creating the hostile webhook answered ${created.statusCode}: ${text}`);
    return { url: setup.serviceUrl, token };
  } finally {
    await dispatcher.destroy();
  }
}

async function balanceOf(wallet: Wallet, localAddress: string): Promise<number | undefined> {
  const dispatcher = new Agent({ connections: 1, localAddress });
  try {
    const answer = await request(`${wallet.url}/token`, { dispatcher, headers: { 'x-token': wallet.token } });
    const body = await answer.body.text();
    return answer.statusCode === 200 ? (JSON.parse(body) as { wallet: number }).wallet : undefined;
  } catch {
    return undefined;
  } finally {
    await dispatcher.destroy();
  }
}

async function attack(setup: Setup, peers: Peers, wallet: Wallet, durationMs: number): Promise<HostileReport> {
  const { mix, localAddress } = setup;
  const stop = AbortSignal.timeout(durationMs);
  let n = 0;
  const slowPage = () => peers.pages.url(`/slow?n=${++n}`, '127.0.0.1');
  const kvKey = () => `k${++n % 1000}`;
  const [tests, metadata, mcpBatches, kvWrites] = await Promise.all([
    flood(mix.testConnections, localAddress, wallet, () => ({ method: 'POST', path: '/webhook/flood/test' }), stop),
    flood(
      mix.metadataConnections,
      localAddress,
      wallet,
      () => ({
        method: 'POST',
        path: '/url-to-metadata',
        body: JSON.stringify({ url: slowPage() }),
        contentType: 'application/json',
      }),
      stop,
    ),
    flood(
      mix.mcpConnections,
      localAddress,
      wallet,
      () => ({
        method: 'POST',
        path: '/mcp',
        body: mcpBatch(mix, slowPage, kvKey),
        contentType: 'application/json',
        accept: 'application/json, text/event-stream',
      }),
      stop,
    ),
    flood(
      mix.kvConnections,
      localAddress,
      wallet,
      () => ({ method: 'POST', path: `/kv/flood/${kvKey()}`, body: KV_VALUE, contentType: 'text/plain' }),
      stop,
    ),
  ]);
  return {
    tests,
    metadata,
    mcpBatches,
    kvWrites,
    webhookRequests: peers.webhook.requests.length,
    webhookRetries: peers.watch.retries,
    slowPageRequests: peers.pages.requests.length,
    balanceAfter: await balanceOf(wallet, localAddress),
  };
}

let peers: Peers | undefined;
let wallet: Wallet | undefined;
let setup: Setup | undefined;

async function handle(message: ToHostile): Promise<void> {
  switch (message.type) {
    case 'setup':
      setup = message;
      peers = await startPeers(message);
      wallet = await setUp(message, peers);
      send({ type: 'ready' });
      return;
    case 'attack':
      if (setup === undefined || peers === undefined || wallet === undefined) throw new Error('attack before setup');
      send({ type: 'done', report: await attack(setup, peers, wallet, message.durationMs) });
  }
}

process.on('message', (message: ToHostile) => {
  handle(message).catch((error: unknown) =>
    send({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
// The scenario gone (its test killed), nothing is left to serve.
process.on('disconnect', () => process.exit(0));
