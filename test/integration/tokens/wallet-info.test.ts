import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';

describeEachStore('GET /token shows the wallet', (kind) => {
  const clock = new ManualClock(Date.parse('2026-03-01T08:30:15.250Z'));
  const get = useTestApp(kind, { clock });
  const info = (token: string) => get().inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });

  it('answers {wallet, created, hash} with the balance after this call, the creation time and the SHA-256 hex of the token', async () => {
    const token = await get().createToken(100);
    const createdAt = clock.now();
    clock.advance(60_000);
    const res = await info(token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toStrictEqual({
      wallet: 99,
      created: new Date(createdAt).toISOString(),
      hash: sha256Hex(token),
    });
    expect(res.json().created).toBe('2026-03-01T08:30:15.250Z');
  });

  it('costs 1 credit: x-cost 1 and x-balance equal to the wallet field', async () => {
    const token = await get().createToken(7);
    const res = await info(token);
    expect(res.headers['x-cost']).toBe('1');
    expect(res.headers['x-balance']).toBe('6');
    expect(res.json().wallet).toBe(6);
  });

  it('counts down by one on each call and the store agrees', async () => {
    const t = get();
    const token = await t.createToken(3);
    const wallets = [];
    for (let i = 0; i < 3; i++) {
      const res = await info(token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-balance']).toBe(String(res.json().wallet));
      wallets.push(res.json().wallet);
    }
    expect(wallets).toEqual([2, 1, 0]);
    const row = await t.deps.store.read.get<{ balance: number }>('SELECT balance FROM wallets WHERE hash = $1', [
      sha256Hex(token),
    ]);
    expect(row?.balance).toBe(0);
  });

  it('shows each token its own wallet', async () => {
    const a = await get().createToken(10);
    const b = await get().createToken(50);
    const [resA, resB] = [await info(a), await info(b)];
    expect(resA.json()).toMatchObject({ wallet: 9, hash: sha256Hex(a) });
    expect(resB.json()).toMatchObject({ wallet: 49, hash: sha256Hex(b) });
  });

  it('answers 402 Insufficient credits with the balance unchanged on an empty wallet', async () => {
    const token = await get().createToken(0);
    const res = await info(token);
    expect(res.statusCode).toBe(402);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('Insufficient credits');
    expect(res.headers['x-cost']).toBe('0');
    expect(res.headers['x-balance']).toBe('0');
  });
});
