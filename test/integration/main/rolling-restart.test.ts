import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';
import { startServerProcess } from '../../helpers/server-process.js';
import type { ServerProcess } from '../../helpers/server-process.js';
import { fundedToken } from '../../helpers/funded-token.js';

/**
 * A rolling restart as an operator runs one: two instances on one PostgreSQL behind a small load balancer
 * that probes /readyz and fails over when a backend refuses a connection; each instance in turn gets SIGTERM
 * and is started again, under steady load. Not one request may fail.
 */
const ADMIN_TOKEN = 'admin-token-for-rolling-restart';
const PROBE_EVERY_MS = 200;

interface Backend {
  process: ServerProcess;
  ready: boolean;
}

/** Round robin over the ready backends; a refused connection is tried on the next one, as load balancers do. */
function startBalancer(backends: Backend[]): Promise<{ server: Server; url: string; stop: () => Promise<void> }> {
  const agent = new Agent({ connections: 64 });
  let next = 0;
  const forward = async (incoming: IncomingMessage, outgoing: ServerResponse, body: Buffer) => {
    for (let attempt = 0; attempt < 2 * backends.length; attempt += 1) {
      const ready = backends.filter((backend) => backend.ready);
      const backend = ready[next++ % Math.max(1, ready.length)];
      if (backend === undefined) break;
      try {
        const answer = await request(`${backend.process.url}${incoming.url ?? '/'}`, {
          method: incoming.method as 'GET' | 'POST',
          headers: {
            ...(incoming.headers['x-token'] === undefined ? {} : { 'x-token': String(incoming.headers['x-token']) }),
          },
          ...(body.length > 0 ? { body } : {}),
          dispatcher: agent,
        });
        const text = await answer.body.text();
        outgoing.writeHead(answer.statusCode, { 'content-type': 'text/plain' }).end(text);
        return;
      } catch (error) {
        // Only a connection that was never made is safe to send elsewhere.
        if ((error as { code?: string }).code !== 'ECONNREFUSED') throw error;
      }
    }
    outgoing.writeHead(502).end('no backend');
  };
  const probe = setInterval(() => {
    for (const backend of backends) {
      request(`${backend.process.url}/readyz`, { dispatcher: agent })
        .then(async (answer) => {
          await answer.body.dump();
          backend.ready = answer.statusCode === 200;
        })
        .catch(() => (backend.ready = false));
    }
  }, PROBE_EVERY_MS);
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      forward(incoming, outgoing, Buffer.concat(chunks)).catch((error: unknown) =>
        outgoing.writeHead(599).end(String(error)),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        stop: async () => {
          clearInterval(probe);
          await new Promise((done) => server.close(done));
          await agent.close();
        },
      }),
    ),
  );
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('a rolling restart of two instances behind a load balancer', () => {
  let database: ScratchDatabase | undefined;
  const backends: Backend[] = [];
  afterAll(async () => {
    for (const backend of backends) backend.process.child.kill('SIGKILL');
    await database?.drop();
  });

  it('fails no request while each instance in turn is stopped with SIGTERM and started again', async () => {
    database = await scratchDatabase('postgres');
    const env = {
      DATABASE_URL: database.url,
      ADMIN_TOKEN,
      SHUTDOWN_DELAY_MS: String(3 * PROBE_EVERY_MS + 400),
      LOG_LEVEL: 'error',
    };
    for (let i = 0; i < 2; i += 1) backends.push({ process: await startServerProcess(env), ready: true });
    const balancer = await startBalancer(backends);
    const token = await fundedToken(backends[0]?.process.url ?? '', { adminToken: ADMIN_TOKEN, amount: 1_000_000 });

    const client = new Agent({ connections: 8 });
    const failures: string[] = [];
    let answered = 0;
    let running = true;
    const lane = async (id: number) => {
      for (let n = 0; running; n += 1) {
        try {
          const set = await request(`${balancer.url}/kv/roll/k${id}-${n}`, {
            method: 'POST',
            body: `v${n}`,
            headers: { 'x-token': token },
            dispatcher: client,
          });
          const setText = await set.body.text();
          if (set.statusCode !== 200) failures.push(`set ${set.statusCode} ${setText}`);
          const read = await request(`${balancer.url}/kv/roll/k${id}-${n}`, {
            headers: { 'x-token': token },
            dispatcher: client,
          });
          const readText = await read.body.text();
          if (read.statusCode !== 200 || readText !== `v${n}`) failures.push(`get ${read.statusCode} ${readText}`);
          answered += 2;
        } catch (error) {
          failures.push(String(error));
        }
      }
    };
    const lanes = Promise.all(Array.from({ length: 8 }, (_, id) => lane(id)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const backend of backends) {
      backend.process.child.kill('SIGTERM');
      expect(await backend.process.exited).toBe(0);
      backend.process = await startServerProcess(env);
      await new Promise((resolve) => setTimeout(resolve, 3 * PROBE_EVERY_MS));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    running = false;
    await lanes;
    await client.close();
    await balancer.stop();

    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(200);
  }, 90_000);
});
