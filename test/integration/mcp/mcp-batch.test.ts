import { beforeAll, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';

/** The bounds docs/limits.md states for one POST /mcp. */
const MAX_BATCH = 20;
const MAX_ANSWER_BYTES = 1024 * 1024;

interface JsonRpcAnswer {
  id: number | null;
  result?: { content: { type: string; text: string }[]; _meta?: Record<string, number>; isError?: boolean };
  error?: { code: number; message: string };
}

const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const logsCall = (id: number) => toolCall(id, 'logs', { n: 100 });

describeEachStore('MCP batches', (kind) => {
  const get = useTestApp(kind);
  let base = '';
  /** A wallet whose last 100 log rows each carry a path of about 500 characters: the largest answer `logs` gives. */
  let heavyToken = '';

  beforeAll(async () => {
    await get().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(get().app.server.address() as AddressInfo).port}`;
    heavyToken = await get().createToken(1000);
    for (let i = 0; i < 100; i++) {
      // A key of 490 characters is the route's 400, charged and logged with its whole path.
      await get().inject({ method: 'GET', url: `/kv/b/${'k'.repeat(490)}${i}`, headers: { 'x-token': heavyToken } });
    }
  });

  /** One POST /mcp as an MCP client sends it after initialising (stateless: no session). */
  async function post(token: string, messages: unknown[]): Promise<{ status: number; text: string }> {
    const answer = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        'x-token': token,
      },
      body: JSON.stringify(messages),
    });
    return { status: answer.status, text: await answer.text() };
  }
  const walletOf = async (token: string) =>
    (await get().inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).json<{ wallet: number }>()
      .wallet;
  const stored = async (token: string, key: string) =>
    (await get().inject({ method: 'GET', url: `/kv/batch/${key}`, headers: { 'x-token': token } })).statusCode === 200;

  it(`refuses a batch of more than ${MAX_BATCH} messages whole, as a JSON-RPC error, running none of it`, async () => {
    const token = await get().createToken(100);
    const sets = (count: number) =>
      Array.from({ length: count }, (_, id) => toolCall(id, 'kv_set', { bucket: 'batch', key: `k${id}`, value: 'v' }));
    const refused = await post(token, sets(MAX_BATCH + 1));
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: `Invalid Request: Batch must not exceed ${MAX_BATCH} messages` },
      id: null,
    });
    expect(await stored(token, 'k0')).toBe(false);
    expect(await walletOf(token)).toBe(98); // the two GETs just made, nothing else

    const accepted = await post(token, sets(MAX_BATCH));
    expect(accepted.status).toBe(200);
    const answers = JSON.parse(accepted.text) as JsonRpcAnswer[];
    expect(answers.map((answer) => answer.result?._meta?.status)).toEqual(Array.from({ length: MAX_BATCH }, () => 200));
    expect(await walletOf(token)).toBe(98 - MAX_BATCH - 1);
  });

  it('stops running the calls of a batch once its answer reaches 1 MiB: the rest answer an error and are not charged', async () => {
    const before = await walletOf(heavyToken);
    const sets = [0, 1, 2, 3].map((i) => toolCall(100 + i, 'kv_set', { bucket: 'batch', key: `late${i}`, value: 'v' }));
    const { status, text } = await post(heavyToken, [...Array.from({ length: 16 }, (_, id) => logsCall(id)), ...sets]);
    expect(status).toBe(200);
    const answers = JSON.parse(text) as JsonRpcAnswer[];
    const run = answers.filter((answer) => answer.result !== undefined);
    const notRun = answers.filter((answer) => answer.error !== undefined);
    // Each logs answer is about 80 KB: the bound is reached within the 16, and nothing after it runs.
    expect(run.length).toBeGreaterThan(8);
    expect(run.length).toBeLessThan(16);
    expect(answers.slice(0, run.length)).toEqual(run);
    expect(notRun.map((answer) => answer.id)).toEqual([
      ...Array.from({ length: 16 - run.length }, (_, i) => run.length + i),
      100,
      101,
      102,
      103,
    ]);
    for (const answer of notRun) {
      expect(answer.error?.code).toBe(-32010);
      expect(answer.error?.message).toMatch(/answer reached 1048576 bytes.*not run \(nor charged\)/);
    }
    expect(Buffer.byteLength(text)).toBeLessThan(MAX_ANSWER_BYTES + 200 * 1024);
    for (const i of [0, 1, 2, 3]) expect(await stored(heavyToken, `late${i}`)).toBe(false);
    // logs are free: the four GETs /kv and this GET /token are all this wallet paid since `before`.
    expect(await walletOf(heavyToken)).toBe(before - 4 - 1);
  });

  it('holds the event loop briefly however large the batch, with four clients at once', async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    try {
      await Promise.all(
        [0, 1, 2, 3].map(async () => {
          // The largest batch the SDK's transport accepts, then the largest this service runs.
          await post(
            heavyToken,
            Array.from({ length: 100 }, (_, id) => logsCall(id)),
          );
          const { status } = await post(
            heavyToken,
            Array.from({ length: MAX_BATCH }, (_, id) => logsCall(id)),
          );
          expect(status).toBe(200);
        }),
      );
    } finally {
      delay.disable();
    }
    expect(delay.max / 1e6).toBeLessThan(250);
  });
});
