import { beforeAll, expect, it } from 'vitest';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';

const HEADERS_TIMEOUT_MS = 600;
const REQUEST_TIMEOUT_MS = 1200;
// Each byte comes sooner than either limit: only the total time of the head or the request can cut it.
const TRICKLE_MS = 150;

interface RawExchange {
  /** Everything the server sent before closing. */
  readonly received: string;
  /** From the first byte sent to the close. */
  readonly elapsedMs: number;
}

/** Sends `atOnce`, then `trickled` one byte every TRICKLE_MS, over a raw socket until the server closes it. */
function trickle(port: number, atOnce: string, trickled: string): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    if (atOnce !== '') socket.write(atOnce);
    const bytes = [...trickled];
    let received = '';
    const timer = setInterval(() => {
      const next = bytes.shift();
      if (next !== undefined && socket.writable) socket.write(next);
    }, TRICKLE_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    const done = () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ received, elapsedMs: Date.now() - started });
    };
    // Far past either limit: the server is not cutting this client.
    const giveUp = setTimeout(done, REQUEST_TIMEOUT_MS + 5_000);
    socket.on('close', done);
  });
}

function expectTimedOut(exchange: RawExchange, limitMs: number): void {
  const [head = '', body] = exchange.received.split('\r\n\r\n');
  expect(head.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
  expect(head.toLowerCase()).toContain('content-type: text/plain; charset=utf-8');
  expect(head.toLowerCase()).toContain('connection: close');
  expect(body).toBe('Request Timeout');
  // Cut at the limit, give or take the check interval and a busy machine, not whenever the client stops.
  expect(exchange.elapsedMs).toBeGreaterThanOrEqual(limitMs - 50);
  expect(exchange.elapsedMs).toBeLessThan(limitMs + 2_000);
}

describeEachStore('HTTP time limits for slow clients', (kind) => {
  const receiver = useOutboundFixture();
  const get = useTestApp(kind, {
    env: {
      ...receiver.env,
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    },
  });
  let port = 0;
  beforeAll(async () => {
    await get().app.listen({ port: 0, host: '127.0.0.1' });
    port = (get().app.server.address() as AddressInfo).port;
  });

  it('cuts a client that sends its headers slowly after the headers timeout, with a plain-text 408', async () => {
    const head = `GET /healthz HTTP/1.1\r\nHost: coinop.test\r\nX-Padding: ${'a'.repeat(40)}\r\n\r\n`;
    expectTimedOut(await trickle(port, '', head), HEADERS_TIMEOUT_MS);
  });

  it('cuts a client whose body trickles after the request timeout, with a plain-text 408', async () => {
    const token = await get().createToken(100);
    const body = 'v'.repeat(100);
    const head = `POST /kv/slow/body HTTP/1.1\r\nHost: coinop.test\r\nX-Token: ${token}\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`;
    // The head goes at once, so only the whole-request limit applies.
    const exchange = await trickle(port, head, body);
    expectTimedOut(exchange, REQUEST_TIMEOUT_MS);
  });

  it('answers a malformed request head with a plain-text 400 and closes the connection', async () => {
    const { received } = await trickle(port, 'GET /healthz HTTP/1.1\r\nHost coinop.test\r\n\r\n', '');
    const [head = '', body] = received.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(head.toLowerCase()).toContain('content-type: text/plain; charset=utf-8');
    expect(body).toBe('Bad Request');
  });

  it('still serves a client that is merely quick, and keeps its idle keep-alive connection past both limits', async () => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    const request = 'GET /healthz HTTP/1.1\r\nHost: coinop.test\r\n\r\n';
    socket.write(request);
    await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS + 600));
    expect(socket.destroyed).toBe(false);
    socket.write(request);
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.destroy();
    expect(received.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
  });

  it('does not count the time the answer takes: a delivery slower than both limits is answered', async () => {
    const token = await get().createToken(100);
    const created = await get().inject({
      method: 'POST',
      url: '/webhook',
      headers: { 'x-token': token, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: receiver.url('/slow') }),
    });
    receiver.receiver().enqueue({ status: 200, delayMs: REQUEST_TIMEOUT_MS + 500 });
    const res = await fetch(`http://127.0.0.1:${port}/webhook/${String(created.json().webhookId)}/test`, {
      method: 'POST',
      headers: { 'x-token': token },
    });
    expect([res.status, await res.json()]).toEqual([200, { success: true, message: 'test webhook delivered' }]);
  });
});
