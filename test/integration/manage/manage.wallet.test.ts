import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { balanceOf, ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { WALLET_DATA_TABLES } from '../../../src/ledger/ledger.js';
import { ADMIN_TOKEN, expectPlain, operator, UNKNOWN_HASH } from './operator.js';

const AMOUNT_RULE = 'Invalid amount: must be an integer from 1 to 1000000000';

/** Rows a wallet owns: every WALLET_DATA_TABLES table, and the rows keyed by its deliveries and mailboxes. */
async function ownedRows(t: TestApp, walletId: number): Promise<Record<string, number>> {
  const count = async (sql: string, param: unknown = walletId) =>
    Number((await t.deps.store.read.get<{ n: number }>(sql, [param]))?.n ?? 0);
  const counts: Record<string, number> = { wallets: await count('SELECT COUNT(*) AS n FROM wallets WHERE id = $1') };
  for (const table of WALLET_DATA_TABLES)
    counts[table] = await count(`SELECT COUNT(*) AS n FROM ${table} WHERE wallet_id = $1`);
  counts.delivery_attempts = await count(
    'SELECT COUNT(*) AS n FROM delivery_attempts WHERE delivery_id LIKE $1',
    `d-${walletId}-%`,
  );
  counts.inbound_seen_messages = await count(
    'SELECT COUNT(*) AS n FROM inbound_seen_messages WHERE mailbox = $1',
    `box-${walletId}`,
  );
  return counts;
}

/** Gives a wallet a row in every table that holds wallet data: kv and the log through the API, the rest directly. */
async function populate(t: TestApp, token: string, walletId: number): Promise<void> {
  expect(
    (
      await t.inject({
        method: 'POST',
        url: '/kv/b/k',
        payload: 'v',
        headers: { 'x-token': token, 'content-type': 'text/plain' },
      })
    ).statusCode,
  ).toBe(200);
  const now = t.deps.clock.now();
  const run = (sql: string, params: unknown[]) => t.deps.store.writeOne(sql, params);
  await run(
    `INSERT INTO webhooks (wallet_id, webhook_id, url, headers, mailbox, signing_secret, cron, timezone, active, created_at, updated_at)
     VALUES ($1, 'hook', 'https://example.com/h', '{}', $2, 'secret', '0 * * * *', 'UTC', 1, $3, $3)`,
    [walletId, `box-${walletId}`, now],
  );
  await run(
    `INSERT INTO deliveries (id, wallet_id, webhook_id, trigger, created_at, status, attempts, url, cost) VALUES ($1, $2, 'hook', 'test', $3, 'delivered', 1, 'https://example.com/h', 1)`,
    [`d-${walletId}-1`, walletId, now],
  );
  await run(
    `INSERT INTO delivery_attempts (delivery_id, attempt, at, url, ms) VALUES ($1, 1, $2, 'https://example.com/h', 5)`,
    [`d-${walletId}-1`, now],
  );
  await run(
    `INSERT INTO mail_attachments (id, wallet_id, content_type, size, content, expires_at) VALUES ($1, $2, 'text/plain', 1, $3, $4)`,
    [`a-${walletId}`, walletId, Buffer.from('x'), now + 3_600_000],
  );
  await run(
    `INSERT INTO inbound_outbox (id, wallet_id, webhook_id, body, cost, balance, created_at, claim_until) VALUES ($1, $2, 'hook', '{}', 2, 10, $3, $3)`,
    [`o-${walletId}`, walletId, now],
  );
  await run(`INSERT INTO inbound_seen_messages (mailbox, message_hash, seen_at) VALUES ($1, 'm1', $2)`, [
    `box-${walletId}`,
    now,
  ]);
  await t.deps.ledger.flush();
}

describeEachStore('operator API: debit, delete, reasons', (kind) => {
  const clock = new ManualClock(Date.parse('2026-02-10T10:00:00.000Z'));
  const get = useTestApp(kind, { clock, env: { ADMIN_TOKEN } });

  it('debits a wallet, answers {hash, wallet}, and GET /token then shows the new balance', async () => {
    const t = get();
    const token = await t.createToken(100);
    const res = await operator(t).debit(sha256Hex(token), { amount: 40, reason: 'chargeback 77' });
    expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    expect(res.json()).toStrictEqual({ hash: sha256Hex(token), wallet: 60 });
    expect((await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).json().wallet).toBe(59);
  });

  it('takes the whole balance, leaving 0', async () => {
    const token = await get().createToken(25);
    expect((await operator(get()).debit(sha256Hex(token), { amount: 25 })).json()).toStrictEqual({
      hash: sha256Hex(token),
      wallet: 0,
    });
  });

  it('refuses a debit beyond the balance with 409 Balance too low, and changes nothing', async () => {
    const t = get();
    const token = await t.createToken(10);
    expectPlain(await operator(t).debit(sha256Hex(token), { amount: 11, reason: 'too much' }), 409, 'Balance too low');
    expect(await balanceOf(t, token)).toBe(10);
    // The refusal is in the wallet's log, with its reason, its error and the balance it left.
    const logs = (await operator(t).logs(sha256Hex(token), '?type=manage')).json().logs;
    expect(
      logs.map((e: { status_code: number; reason?: string; error?: string; balance: number }) => [
        e.status_code,
        e.reason,
        e.error,
        e.balance,
      ]),
    ).toEqual([[409, 'too much', 'Balance too low', 10]]);
  });

  it('never overdraws under concurrent debits: 20 debits of 10 on 100, exactly 10 succeed', async () => {
    const t = get();
    const token = await t.createToken(100);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => operator(t).debit(sha256Hex(token), { amount: 10 })),
    );
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(10);
    expect(
      answers
        .filter((res) => res.statusCode === 200)
        .map((res) => res.json().wallet as number)
        .sort((a, b) => a - b),
    ).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(await balanceOf(t, token)).toBe(0);
  });

  it.each([
    ['zero', { amount: 0 }, AMOUNT_RULE],
    ['above 1e9', { amount: 1e9 + 1 }, AMOUNT_RULE],
    ['fractional', { amount: 2.5 }, AMOUNT_RULE],
    ['missing', {}, 'Missing required field: amount'],
    [
      'a reason over 200 characters',
      { amount: 1, reason: 'r'.repeat(201) },
      'Invalid reason: must be at most 200 characters',
    ],
    ['beside an unknown field', { amount: 1, note: 'x' }, 'Unknown field: note'],
  ])('answers 400 to a debit whose body is %s, and takes nothing', async (_name, body, message) => {
    const t = get();
    const token = await t.createToken(10);
    expectPlain(await operator(t).debit(sha256Hex(token), body), 400, message);
    expect(await balanceOf(t, token)).toBe(10);
  });

  it('shows the reason of a credit and a debit in /token/logs and in /manage/wallets/{hash}/logs, and none on other entries', async () => {
    const t = get();
    const token = await t.createToken(10);
    const hash = sha256Hex(token);
    await operator(t).credit(hash, { amount: 5, reason: 'support ticket 17' });
    await operator(t).debit(hash, { amount: 3, reason: 'refund reversal' });
    await operator(t).credit(hash, { amount: 1 });
    const own = (
      await t.inject({ method: 'GET', url: '/token/logs?type=manage', headers: { 'x-token': token } })
    ).json().logs;
    const seen = (await operator(t).logs(hash, '?type=manage')).json().logs;
    for (const logs of [own, seen]) {
      expect(logs.map((e: { path: string; reason?: string }) => [e.path.split('/').pop(), e.reason])).toEqual([
        ['credit', undefined],
        ['debit', 'refund reversal'],
        ['credit', 'support ticket 17'],
      ]);
      expect(Object.keys(logs[0])).not.toContain('reason');
    }
  });

  it('deletes a wallet with every row it owns, leaves other wallets whole, and its token then answers 401', async () => {
    const t = get();
    const [token, other] = [await t.createToken(50), await t.createToken(50)];
    const [id, otherId] = [
      (await t.deps.ledger.walletByHash(sha256Hex(token)))?.id ?? 0,
      (await t.deps.ledger.walletByHash(sha256Hex(other)))?.id ?? 0,
    ];
    await populate(t, token, id);
    await populate(t, other, otherId);
    const before = await ownedRows(t, id);
    // Every table holds a row of the wallet, so the zero counts below say something.
    expect(Object.entries(before).filter(([, n]) => n === 0)).toEqual([]);
    const otherBefore = await ownedRows(t, otherId);

    const res = await operator(t).remove(sha256Hex(token));
    expectPlain(res, 200, 'OK');
    await t.deps.ledger.flush();
    expect(Object.values(await ownedRows(t, id)).every((n) => n === 0)).toBe(true);
    expect(await ownedRows(t, id)).toEqual(Object.fromEntries(Object.keys(before).map((table) => [table, 0])));
    // The other wallet, its log grown by nothing but its own calls, keeps everything.
    expect(await ownedRows(t, otherId)).toEqual(otherBefore);
    expectPlain(await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } }), 401, 'Unauthorized');
    expectPlain(await operator(t).read(sha256Hex(token)), 404, 'Not Found');
    expectPlain(await operator(t).remove(sha256Hex(token)), 404, 'Not Found');
  });

  it('deletes a wallet whose token was used the moment before (cached, its log row not yet written): 401, and no row left', async () => {
    const t = get();
    const token = await t.createToken(50);
    const id = (await t.deps.ledger.walletByHash(sha256Hex(token)))?.id ?? 0;
    expect((await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).statusCode).toBe(200);
    expect(t.deps.ledger.cachedWallet(sha256Hex(token))).toBeDefined();
    expectPlain(await operator(t).remove(sha256Hex(token)), 200, 'OK');
    expect(t.deps.ledger.cachedWallet(sha256Hex(token))).toBeUndefined();
    expectPlain(await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } }), 401, 'Unauthorized');
    await t.deps.ledger.flush();
    expect(Object.values(await ownedRows(t, id)).every((n) => n === 0)).toBe(true);
  });

  it('answers 404 Not Found to debit, delete and logs of a hash no wallet has', async () => {
    expectPlain(await operator(get()).debit(UNKNOWN_HASH, { amount: 1 }), 404, 'Not Found');
    expectPlain(await operator(get()).remove(UNKNOWN_HASH), 404, 'Not Found');
    expectPlain(await operator(get()).logs(UNKNOWN_HASH), 404, 'Not Found');
  });

  it('takes a hash in uppercase as the same wallet on every operation (as PowerShell writes it)', async () => {
    const t = get();
    const token = await t.createToken(10);
    const upper = sha256Hex(token).toUpperCase();
    const as = operator(t);
    expect((await as.credit(upper, { amount: 5 })).json()).toStrictEqual({ hash: sha256Hex(token), wallet: 15 });
    expect((await as.debit(upper, { amount: 2 })).json()).toStrictEqual({ hash: sha256Hex(token), wallet: 13 });
    expect((await as.read(upper)).json()).toMatchObject({ hash: sha256Hex(token), wallet: 13 });
    expect((await as.logs(upper)).statusCode).toBe(200);
    expect((await as.remove(upper)).statusCode).toBe(200);
    expectPlain(await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } }), 401, 'Unauthorized');
  });

  it('answers 400 to a malformed hash on debit, delete and logs', async () => {
    for (const res of [
      await operator(get()).debit('abc', { amount: 1 }),
      await operator(get()).remove('abc'),
      await operator(get()).logs('abc'),
    ])
      expectPlain(res, 400, 'Invalid hash: must be a SHA-256 hex hash');
  });

  it.each([
    ['a missing x-admin-token', null, '198.51.100.61'],
    ['a wrong x-admin-token', 'operator-secret-0123456788', '198.51.100.62'],
  ])('answers 403 Forbidden on every new operation to %s, and changes nothing', async (_name, adminToken, client) => {
    const t = get();
    const token = await t.createToken(10);
    const hash = sha256Hex(token);
    // Fewer wrong tokens than the throttle's limit from each client (manage.throttle.test.ts tests the limit).
    const as = operator(t, adminToken, client);
    for (const res of [
      await as.debit(hash, { amount: 5 }),
      await as.remove(hash),
      await as.logs(hash),
      await as.list(),
      await as.stats(),
      await as.remove(UNKNOWN_HASH),
      await as.list('?limit=0'),
    ])
      expectPlain(res, 403, 'Forbidden');
    expect(await balanceOf(t, token)).toBe(10);
  });
});

describeEachStore('operator API without ADMIN_TOKEN: the new operations', (kind) => {
  const get = useTestApp(kind);

  it('answers 404 Not Found, whatever x-admin-token says, and deletes nothing', async () => {
    const token = await get().createToken(10);
    const as = operator(get(), ADMIN_TOKEN);
    for (const res of [
      await as.debit(sha256Hex(token), { amount: 5 }),
      await as.remove(sha256Hex(token)),
      await as.list(),
      await as.stats(),
      await as.logs(sha256Hex(token)),
    ])
      expectPlain(res, 404, 'Not Found');
    expect(await balanceOf(get(), token)).toBe(10);
  });
});
