import { afterAll, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { describeEachStore } from '../../helpers/each-store.js';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';
import { startServerProcess } from '../../helpers/server-process.js';
import { fundedToken } from '../../helpers/funded-token.js';

const ADMIN_TOKEN = 'admin-token-for-crash-test';

describeEachStore('kill -9 during a stream of KV writes', (kind) => {
  let database: ScratchDatabase;
  const agent = new Agent({ connections: 16 });
  afterAll(async () => {
    await agent.close();
    await database?.drop();
  });

  it('loses no write that was answered 200', async () => {
    database = await scratchDatabase(kind);
    const env = { DATABASE_URL: database.url, ADMIN_TOKEN };
    const first = await startServerProcess(env);
    const token = await fundedToken(first.url, { adminToken: ADMIN_TOKEN, amount: 1_000_000, dispatcher: agent });

    const acknowledged = new Map<string, string>();
    let stop = false;
    let sequence = 0;
    const writer = async (lane: number) => {
      while (!stop) {
        const key = `k${lane}-${sequence++}`;
        const value = `v-${key}`;
        try {
          const response = await request(`${first.url}/kv/crash/${key}`, {
            method: 'POST',
            body: value,
            headers: { 'x-token': token },
            dispatcher: agent,
          });
          await response.body.dump();
          if (response.statusCode === 200) acknowledged.set(key, value);
        } catch {
          return; // the server is gone
        }
      }
    };
    const lanes = Array.from({ length: 8 }, (_, lane) => writer(lane));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(lanes);
    await first.exited;
    expect(acknowledged.size).toBeGreaterThan(100);

    const second = await startServerProcess(env);
    try {
      const missing: string[] = [];
      const keys = [...acknowledged.keys()];
      for (let i = 0; i < keys.length; i += 32) {
        await Promise.all(
          keys.slice(i, i + 32).map(async (key) => {
            const response = await request(`${second.url}/kv/crash/${key}`, {
              headers: { 'x-token': token },
              dispatcher: agent,
            });
            const body = await response.body.text();
            if (response.statusCode !== 200 || body !== acknowledged.get(key)) missing.push(key);
          }),
        );
      }
      expect(missing).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
