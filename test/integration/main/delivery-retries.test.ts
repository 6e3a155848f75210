import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createTestCertificates, startHttpsReceiver } from '../../helpers/https-receiver.js';
import type { HttpsReceiver } from '../../helpers/https-receiver.js';
import { startServerProcess } from '../../helpers/server-process.js';
import type { ServerProcess } from '../../helpers/server-process.js';
import { fundedToken } from '../../helpers/funded-token.js';
import { until } from '../../helpers/wait.js';

/**
 * The retry worker as the service runs it: `src/main.ts` in its own process, its real clock, a small
 * DELIVERY_RETRY_BASE_MS. The other retry tests drive the worker's passes by hand; this one shows that the
 * composition root starts it, so a retry happens with nobody driving it.
 */

const ADMIN_TOKEN = 'admin-token-for-delivery-retries';

describe('delivery retries in a running service', () => {
  let service: ServerProcess;
  let receiver: HttpsReceiver;
  let dataDir: string;

  beforeAll(async () => {
    const certificates = createTestCertificates();
    dataDir = mkdtempSync(join(tmpdir(), 'coinop-retries-'));
    const caFile = join(dataDir, 'ca.pem');
    writeFileSync(caFile, certificates.caPem);
    receiver = await startHttpsReceiver({ certificates });
    service = await startServerProcess({
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
      OUTBOUND_CA_FILE: caFile,
      DELIVERY_RETRY_BASE_MS: '100',
      LOG_LEVEL: 'warn',
    });
  }, 60_000);

  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('retries a failed test delivery by itself until the receiver accepts it, charged once', async () => {
    const token = await fundedToken(service.url, { adminToken: ADMIN_TOKEN, amount: 100 });
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const answer = await request(`${service.url}${path}`, {
        method,
        headers: { 'x-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await answer.body.text();
      const json = (answer.headers['content-type'] ?? '').toString().startsWith('application/json')
        ? (JSON.parse(text) as Record<string, unknown>)
        : { text };
      return { status: answer.statusCode, balance: Number(answer.headers['x-balance']), json };
    };
    // An inactive schedule never fires: the webhook only serves the test delivery.
    const created = await call('POST', '/webhook', {
      webhookId: 'retried',
      url: receiver.url('/hook', '127.0.0.1'),
      schedule: { cron: '0 0 * * *', timezone: 'UTC', active: false },
      retry: { attempts: 2 },
    });
    expect([created.status, created.json]).toMatchObject([200, { webhookId: 'retried' }]);

    receiver.enqueue({ status: 503, body: 'busy' });
    const tested = await call('POST', '/webhook/retried/test');
    expect(tested.json).toMatchObject({ success: false });
    const afterTest = tested.balance;

    const requests = await receiver.waitForRequests(2, 15_000);
    expect(requests[0]?.headers['webhook-id']).toBe(requests[1]?.headers['webhook-id']);
    let deliveries: Array<Record<string, unknown>> = [];
    expect(
      await until(async () => {
        deliveries = (await call('GET', '/webhook/retried/deliveries')).json.deliveries as Array<
          Record<string, unknown>
        >;
        return deliveries[0]?.status === 'success';
      }, 10_000),
    ).toBe(true);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ trigger: 'test', status: 'success', attempts: 2, lastStatusCode: 200 });
    // The history read is free; the retry cost nothing: the balance is the one the test delivery left.
    expect((await call('GET', '/webhook/retried/deliveries')).balance).toBe(afterTest);
  }, 60_000);
});
