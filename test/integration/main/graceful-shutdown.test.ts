import { afterAll, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { connect } from 'node:net';
import { Agent, request } from 'undici';
import { describeEachStore } from '../../helpers/each-store.js';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';
import { startServerProcess } from '../../helpers/server-process.js';

describeEachStore('SIGTERM', (kind) => {
  let database: ScratchDatabase;
  const agent = new Agent({ connections: 8 });
  afterAll(async () => {
    await agent.close();
    await database?.drop();
  });

  it('answers the requests in flight, flushes their log entries and exits 0', async () => {
    database = await scratchDatabase(kind);
    const env = { DATABASE_URL: database.url };
    const first = await startServerProcess(env);
    const created = await request(`${first.url}/token`, {
      method: 'POST',
      body: 'token=new',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      dispatcher: agent,
    });
    const token = await created.body.text();

    const inFlight = Array.from({ length: 20 }, (_, i) =>
      request(`${first.url}/kv/drain/k${i}`, {
        method: 'POST',
        body: `v${i}`,
        headers: { 'x-token': token },
        dispatcher: agent,
      }).then(async (r) => {
        await r.body.dump();
        return r.statusCode;
      }),
    );
    // One request is surely in flight when the signal comes: its body is still being sent.
    let finishBody!: () => void;
    const bodyFinished = new Promise<void>((resolve) => (finishBody = resolve));
    async function* slowBody() {
      yield 'slow-';
      await bodyFinished;
      yield 'value';
    }
    const slow = request(`${first.url}/kv/drain/slow`, {
      method: 'POST',
      body: Readable.from(slowBody()),
      headers: { 'x-token': token },
      dispatcher: agent,
    }).then(async (r) => {
      await r.body.dump();
      return r.statusCode;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    first.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    finishBody();
    expect(await slow).toBe(200);
    const statuses = await Promise.all(inFlight.map((p) => p.catch(() => 0)));
    expect(await first.exited).toBe(0);
    const answered = statuses.filter((status) => status === 200).length + 1;
    expect(statuses.every((status) => status === 200 || status === 503 || status === 0)).toBe(true);

    const second = await startServerProcess(env);
    try {
      const response = await request(`${second.url}/token/logs?n=100&type=kv`, {
        headers: { 'x-token': token },
        dispatcher: agent,
      });
      const body = (await response.body.json()) as { n: number };
      expect(body.n).toBe(answered);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
  it('cuts an upload still arriving after the grace, charges nothing for it and logs no error', async () => {
    const cutDatabase = await scratchDatabase(kind);
    try {
      const env = { DATABASE_URL: cutDatabase.url };
      const first = await startServerProcess(env);
      const token = await (
        await request(`${first.url}/token`, {
          method: 'POST',
          body: 'token=new',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          dispatcher: agent,
        })
      ).body.text();
      const { port } = new URL(first.url);
      // Headers and a part of the body, then nothing: the stop must cut it.
      const stalled = connect(Number(port), '127.0.0.1');
      stalled.on('error', () => undefined);
      const cut = new Promise<void>((resolve) => stalled.once('close', () => resolve()));
      stalled.write(`POST /kv/cut/k HTTP/1.1\r\nHost: x\r\nx-token: ${token}\r\ncontent-length: 100\r\n\r\nabc`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      first.child.kill('SIGTERM');
      await cut;
      expect(await first.exited).toBe(0);
      const lines = first
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      expect(lines.at(-1)?.msg).toBe('stopped');

      const second = await startServerProcess(env);
      try {
        const response = await request(`${second.url}/token/logs?n=10&type=kv`, {
          headers: { 'x-token': token },
          dispatcher: agent,
        });
        expect(response.headers['x-balance']).toBe('100');
        expect(((await response.body.json()) as { n: number }).n).toBe(0);
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    } finally {
      await cutDatabase.drop();
    }
  }, 30_000);
});
