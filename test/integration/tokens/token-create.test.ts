import { expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';

const PLAIN = 'text/plain; charset=utf-8';
const FORM = 'application/x-www-form-urlencoded';
const TOKEN_SHAPE = /^coin_[A-Za-z0-9_-]{43}$/;

/** POST /token from one client address (the rate limit is per address). */
function createFrom(t: TestApp, ip: string, request: Partial<InjectOptions> = {}) {
  return t.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': FORM },
    payload: 'token=new',
    remoteAddress: ip,
    ...request,
  });
}

/** Every string cell of every table in the store, so a leaked token cannot hide in a column we forgot. */
async function everyStoredString(t: TestApp): Promise<string[]> {
  const read = t.deps.store.read;
  const tables =
    t.deps.store.dialect === 'sqlite'
      ? await read.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      : await read.all<{ name: string }>(
          'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()',
        );
  const cells: string[] = [];
  for (const { name } of tables) {
    for (const row of await read.all<Record<string, unknown>>(`SELECT * FROM "${name}"`)) {
      for (const value of Object.values(row)) if (typeof value === 'string') cells.push(value);
    }
  }
  return cells;
}

describeEachStore('POST /token creates a token', (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock });

  it('answers 200 with a plain-text token of coin_ and 43 base64url characters', async () => {
    const res = await createFrom(get(), '198.51.100.1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(PLAIN);
    expect(res.body).toMatch(TOKEN_SHAPE);
    expect(res.headers['x-cost']).toBeUndefined();
  });

  it('opens a wallet of 100 credits, which GET /token then shows as 99 after its 1-credit charge', async () => {
    const t = get();
    const token = (await createFrom(t, '198.51.100.2')).body;
    const row = await t.deps.store.read.get<{ balance: number; created_at: number }>(
      'SELECT balance, created_at FROM wallets WHERE hash = $1',
      [sha256Hex(token)],
    );
    expect(row).toEqual({ balance: 100, created_at: clock.now() });
    const info = await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toEqual({ wallet: 99, created: new Date(clock.now()).toISOString(), hash: sha256Hex(token) });
  });

  it('hands out a different token on every creation', async () => {
    const a = (await createFrom(get(), '198.51.100.3')).body;
    const b = (await createFrom(get(), '198.51.100.4')).body;
    expect(a).toMatch(TOKEN_SHAPE);
    expect(b).toMatch(TOKEN_SHAPE);
    expect(a).not.toBe(b);
  });

  it('stores only the SHA-256 hex of the token, never the token itself', async () => {
    const t = get();
    const token = (await createFrom(t, '198.51.100.5')).body;
    expect(token).toMatch(TOKEN_SHAPE);
    const cells = await everyStoredString(t);
    expect(cells.filter((cell) => cell.includes(token))).toEqual([]);
    expect(cells.filter((cell) => cell.includes(token.slice('coin_'.length)))).toEqual([]);
    const hashes = await t.deps.store.read.all<{ hash: string }>('SELECT hash FROM wallets WHERE hash = $1', [
      sha256Hex(token),
    ]);
    expect(hashes).toEqual([{ hash: sha256Hex(token) }]);
    expect(hashes[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describeEachStore('POST /token refuses any body but the form token=new', (kind) => {
  const get = useTestApp(kind);
  let ip = 10;
  const nextIp = () => `203.0.113.${ip++}`;

  // A body in another media type may be refused by content type or by the form schema: either sentence is fine.
  const NOT_A_FORM = ['Unsupported content type', 'Invalid body: expected the form field token=new'];
  const refused: Array<[string, Partial<InjectOptions>, string | string[]]> = [
    ['another value', { payload: 'token=old' }, 'Invalid token: must be the literal new'],
    ['an empty value', { payload: 'token=' }, 'Invalid token: must be the literal new'],
    ['a value in other case', { payload: 'token=NEW' }, 'Invalid token: must be the literal new'],
    ['a value with trailing junk', { payload: 'token=newjunk' }, 'Invalid token: must be the literal new'],
    ['another field name', { payload: 'tokens=new' }, 'Missing required field: token'],
    ['an extra field beside token=new', { payload: 'token=new&extra=1' }, 'Unknown field: extra'],
    ['a JSON body', { headers: { 'content-type': 'application/json' }, payload: '{"token":"new"}' }, NOT_A_FORM],
    ['a text/plain body', { headers: { 'content-type': 'text/plain' }, payload: 'token=new' }, NOT_A_FORM],
    ['no body at all', { headers: {}, payload: undefined }, 'Invalid body: expected the form field token=new'],
  ];

  it.each(refused)('answers 400 plain text to %s, and creates no wallet', async (_name, request, body) => {
    const t = get();
    const before = await t.deps.store.read.get<{ n: number }>('SELECT COUNT(*) AS n FROM wallets');
    const res = await createFrom(t, nextIp(), request);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe(PLAIN);
    if (Array.isArray(body)) expect(body).toContain(res.body);
    else expect(res.body).toBe(body);
    const after = await t.deps.store.read.get<{ n: number }>('SELECT COUNT(*) AS n FROM wallets');
    expect(Number(after?.n)).toBe(Number(before?.n));
  });

  it('does not count a refused request against the rate limit', async () => {
    const ipAddress = nextIp();
    expect((await createFrom(get(), ipAddress, { payload: 'token=old' })).statusCode).toBe(400);
    const res = await createFrom(get(), ipAddress);
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(TOKEN_SHAPE);
  });
});

describeEachStore('POST /token is limited to one creation per client address per 10 seconds', (kind) => {
  const clock = new ManualClock();
  const get = useTestApp(kind, { clock });

  it('answers 429 Too Many Requests with retry-after 10 to a second creation at once from the same address', async () => {
    expect((await createFrom(get(), '192.0.2.1')).statusCode).toBe(200);
    const res = await createFrom(get(), '192.0.2.1');
    expect(res.statusCode).toBe(429);
    expect(res.headers['content-type']).toBe(PLAIN);
    expect(res.body).toBe('Too Many Requests');
    expect(res.headers['retry-after']).toBe('10');
  });

  it('counts retry-after down in whole seconds, rounded up, never below 1', async () => {
    expect((await createFrom(get(), '192.0.2.2')).statusCode).toBe(200);
    clock.advance(5_500);
    expect((await createFrom(get(), '192.0.2.2')).headers['retry-after']).toBe('5');
    clock.advance(4_499);
    const last = await createFrom(get(), '192.0.2.2');
    expect(last.statusCode).toBe(429);
    expect(last.headers['retry-after']).toBe('1');
  });

  it('allows the same address again once 10 seconds have passed since its last creation', async () => {
    expect((await createFrom(get(), '192.0.2.3')).statusCode).toBe(200);
    clock.advance(9_999);
    expect((await createFrom(get(), '192.0.2.3')).statusCode).toBe(429);
    clock.advance(1);
    const res = await createFrom(get(), '192.0.2.3');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(TOKEN_SHAPE);
  });

  it('a refused attempt does not push the window further', async () => {
    expect((await createFrom(get(), '192.0.2.4')).statusCode).toBe(200);
    clock.advance(9_000);
    expect((await createFrom(get(), '192.0.2.4')).statusCode).toBe(429);
    clock.advance(1_000);
    expect((await createFrom(get(), '192.0.2.4')).statusCode).toBe(200);
  });

  it('does not limit another client address', async () => {
    expect((await createFrom(get(), '192.0.2.5')).statusCode).toBe(200);
    const other = await createFrom(get(), '192.0.2.6');
    expect(other.statusCode).toBe(200);
    expect(other.body).toMatch(TOKEN_SHAPE);
  });

  it('ignores X-Forwarded-For when TRUST_PROXY is unset', async () => {
    const first = await createFrom(get(), '192.0.2.7', {
      headers: { 'content-type': FORM, 'x-forwarded-for': '198.18.0.1' },
    });
    expect(first.statusCode).toBe(200);
    const second = await createFrom(get(), '192.0.2.7', {
      headers: { 'content-type': FORM, 'x-forwarded-for': '198.18.0.2' },
    });
    expect(second.statusCode).toBe(429);
  });
});

describeEachStore('POST /token behind a trusted proxy', (kind) => {
  const get = useTestApp(kind, { env: { TRUST_PROXY: '10.9.9.9' } });
  const viaProxy = (client: string) => ({ headers: { 'content-type': FORM, 'x-forwarded-for': client } });

  it('limits each forwarded client separately', async () => {
    expect((await createFrom(get(), '10.9.9.9', viaProxy('198.18.1.1'))).statusCode).toBe(200);
    expect((await createFrom(get(), '10.9.9.9', viaProxy('198.18.1.2'))).statusCode).toBe(200);
    const again = await createFrom(get(), '10.9.9.9', viaProxy('198.18.1.1'));
    expect(again.statusCode).toBe(429);
    expect(again.body).toBe('Too Many Requests');
  });
});
