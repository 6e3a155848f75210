import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { startServerProcess } from '../../helpers/server-process.js';

/**
 * Leaving a fleet on SIGTERM: /readyz turns 503 at once, every request that still arrives during
 * SHUTDOWN_DELAY_MS is answered (with Connection: close, so kept-alive clients reconnect elsewhere),
 * then the listener closes and the process exits 0. No request that reached the instance gets a 503.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'coinop-drain-'));
const agent = new Agent({ connections: 4, pipelining: 1 });
afterAll(async () => {
  await agent.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = async (url: string) => {
  const response = await request(url, { dispatcher: agent });
  return { status: response.statusCode, connection: response.headers.connection, text: await response.body.text() };
};

it('says 503 on /readyz at once on SIGTERM, answers every request during the drain delay with Connection: close, then exits 0', async () => {
  const service = await startServerProcess({ DATA_DIR: dataDir, SHUTDOWN_DELAY_MS: '1500' });
  expect(await get(`${service.url}/readyz`)).toMatchObject({ status: 200, text: 'OK' });
  expect((await get(`${service.url}/healthz`)).connection).not.toBe('close');

  const signalled = performance.now();
  service.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await get(`${service.url}/readyz`)).toMatchObject({ status: 503, text: 'Draining', connection: 'close' });

  // Requests keep coming (a load balancer that has not noticed yet): all answered, none 503.
  const answers: Array<{ status: number; connection: string | string[] | undefined }> = [];
  while (performance.now() - signalled < 1200) {
    answers.push(await get(`${service.url}/healthz`));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(answers.length).toBeGreaterThan(10);
  expect(answers.every((answer) => answer.status === 200 && answer.connection === 'close')).toBe(true);

  expect(await service.exited).toBe(0);
  // Not before the delay was over.
  expect(performance.now() - signalled).toBeGreaterThanOrEqual(1500);
}, 30_000);
