import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { balanceOf } from '../../helpers/app.js';
import { hits, useSites } from '../metadata/sites.js';

/** Posts `body` to the listening app and hangs up after `afterMs`, before any answer (the client gave up). */
function postAndHangUp(port: number, path: string, token: string, body: string, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const call = httpRequest({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      headers: { 'x-token': token, 'content-type': 'application/json' },
    });
    call.on('error', () => resolve());
    call.on('close', () => resolve());
    call.end(body);
    setTimeout(() => call.destroy(), afterMs);
  });
}

describeEachStore('metering: a client that hangs up before its answer', (kind) => {
  const { env, sites } = useSites();
  const get = useTestApp(kind, { env });
  let port = 0;
  beforeAll(async () => {
    await get().app.listen({ port: 0, host: '127.0.0.1' });
    port = (get().app.server.address() as AddressInfo).port;
  });

  it('is charged what the call cost and finds the call in its log, as every paid call is', async () => {
    const token = await get().createToken(100);
    const before = hits(sites().https, '/slow');
    await postAndHangUp(port, '/url-to-metadata', token, JSON.stringify({ url: sites().https.url('/slow') }), 300);
    // The page answers after 5 s: the call goes on without its client, pays for what it did and is logged.
    const logged = async () => {
      await get().deps.ledger.flush();
      const logs = await get().inject({
        method: 'GET',
        url: '/token/logs?type=url-to-metadata',
        headers: { 'x-token': token },
      });
      return logs.json<{ logs: unknown[] }>().logs;
    };
    await expect.poll(logged, { timeout: 10_000, interval: 250 }).toHaveLength(1);
    expect(await logged()).toMatchObject([
      { method: 'POST', path: '/url-to-metadata', status_code: 200, cost: 55, balance: 45 },
    ]);
    expect(await balanceOf(get(), token)).toBe(45);
    expect(hits(sites().https, '/slow')).toBe(before + 1);
    // The operator sees it too: counted in the HTTP metrics (and its access line written), once.
    const metrics = await get().inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(
      /^coinop_http_request_duration_seconds_count\{method="POST",route="\/url-to-metadata",status_code="200"\} 1$/m,
    );
  }, 20_000);
});
