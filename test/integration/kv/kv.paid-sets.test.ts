import { afterEach, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { STORE_KINDS } from '../../helpers/stores.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { useCollector } from '../../helpers/otel-collector.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { KvDeletes, KvReads, KvSets } from '../../../src/features/kv/kv.queries.js';
import type { KvSet } from '../../../src/features/kv/kv.queries.js';
import type { ChargeOutcome } from '../../../src/ledger/ledger.js';

const REFUSED = 'refused-by-the-database';
const UNDELETABLE = 'undeletable';

/**
 * Triggers that make the database refuse one value and the deletion of one key, as a constraint or a full disk would
 * refuse a write.
 */
async function refuseValue(app: TestApp): Promise<void> {
  const { store } = app.deps;
  if (store.dialect === 'sqlite') {
    await store.writeOne(
      `CREATE TRIGGER refuse_value BEFORE INSERT ON kv WHEN CAST(NEW.value AS TEXT) = '${REFUSED}'
       BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    );
    await store.writeOne(
      `CREATE TRIGGER refuse_delete BEFORE DELETE ON kv WHEN OLD.key = '${UNDELETABLE}'
       BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    );
    return;
  }
  await store.writeOne(
    `CREATE FUNCTION refuse_value() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_OP = 'DELETE' THEN
         IF OLD.key = '${UNDELETABLE}' THEN RAISE EXCEPTION 'refused'; END IF;
         RETURN OLD;
       END IF;
       IF convert_from(NEW.value, 'UTF8') = '${REFUSED}' THEN RAISE EXCEPTION 'refused'; END IF;
       RETURN NEW;
     END $$`,
  );
  await store.writeOne(
    'CREATE TRIGGER refuse_value BEFORE INSERT OR DELETE ON kv FOR EACH ROW EXECUTE FUNCTION refuse_value()',
  );
}

describeEachStore('a set and its charge', (kind) => {
  let app: TestApp;
  afterEach(async () => app?.close());

  const set = (token: string, key: string, value: string, query = '') =>
    app.inject({ method: 'POST', url: `/kv/paid/${key}${query}`, payload: value, headers: { 'x-token': token } });
  const stored = async () =>
    Number(
      (await app.deps.store.read.get<{ n: number }>('SELECT COUNT(*) AS n FROM kv WHERE bucket = $1', ['paid']))?.n,
    );
  const balance = async (token: string) =>
    (await app.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).headers['x-balance'];

  it('a set the database refuses is a 500 that costs nothing, stores nothing, and leaves the sets beside it paid and stored', async () => {
    app = await startTestApp(kind);
    await refuseValue(app);
    const token = await app.createToken(10);
    const answers = await Promise.all([set(token, 'a', 'one'), set(token, 'b', REFUSED), set(token, 'c', 'three')]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 500, 200]);
    expect([answers[1]?.body, answers[1]?.headers['x-cost']]).toEqual(['Internal Server Error', '0']);
    // The balance each success saw depends on when the refused set's charge (SQLite) was given back; the end does not.
    expect([answers[0]?.headers['x-cost'], answers[2]?.headers['x-cost']]).toEqual(['1', '1']);
    expect(await stored()).toBe(2);
    // GET /token costs 1 itself.
    expect(await balance(token)).toBe('7');
  });

  it('a delete the database refuses is a 500 that costs nothing and removes nothing; deletes beside it are paid', async () => {
    app = await startTestApp(kind);
    await refuseValue(app);
    const token = await app.createToken(10);
    for (const key of [UNDELETABLE, 'other']) expect((await set(token, key, 'v')).statusCode).toBe(200);
    const remove = (key: string) =>
      app.inject({ method: 'DELETE', url: `/kv/paid/${key}`, headers: { 'x-token': token } });
    const answers = await Promise.all([remove(UNDELETABLE), remove('other'), remove('missing')]);
    expect(answers.map((answer) => [answer.statusCode, answer.headers['x-cost']])).toEqual([
      [500, '0'],
      [200, '1'],
      [404, '1'],
    ]);
    expect(await stored()).toBe(1);
    // Two sets, two paid deletes; GET /token costs 1 itself.
    expect(await balance(token)).toBe('5');
  });

  it('a set refused before it writes pays as every bad request does; a wallet that cannot pay gets 402 and stores nothing', async () => {
    app = await startTestApp(kind);
    const token = await app.createToken(2);
    const bad = await set(token, 'k', 'v', '?ttl=x');
    expect([bad.statusCode, bad.headers['x-cost'], bad.headers['x-balance']]).toEqual([400, '1', '1']);
    const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => set(token, `k${i}`, 'v')));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 402, 402, 402]);
    for (const refused of answers.filter((answer) => answer.statusCode === 402)) {
      expect([refused.body, refused.headers['x-cost'], refused.headers['x-balance']]).toEqual([
        'Insufficient credits',
        '0',
        '0',
      ]);
    }
    expect(await stored()).toBe(1);
    const broke = await set(token, 'k', 'v', '?ttl=x');
    expect([broke.statusCode, broke.headers['x-cost']]).toEqual([402, '0']);
  });
});

// Where the store commits a charge with the write it pays for (PostgreSQL), the sets' writer as the route uses it.
describe.runIf(STORE_KINDS.includes('postgres'))('paid sets and reads on PostgreSQL', () => {
  let app: TestApp;
  let sets: KvSets;
  let reads: KvReads;
  afterEach(async () => app?.close());

  async function start(credits: number): Promise<number> {
    app = await startTestApp('postgres');
    sets = new KvSets(app.deps.store, undefined, app.deps.ledger);
    reads = new KvReads(app.deps.store, undefined, app.deps.ledger);
    const wallet = await app.deps.ledger.findWallet(sha256Hex(await app.createToken(credits)));
    return (wallet as { id: number }).id;
  }
  /** The key a read or delete names, in bucket `b`. */
  const wanted = (walletId: number, key: string) => ({ walletId, bucket: 'b', key });
  const entry = (walletId: number, key: string, value: string): KvSet => ({
    walletId,
    bucket: 'b',
    key,
    value,
    expiresAt: Date.now() + 60_000,
  });
  const valueOf = async (key: string) => {
    const row = await app.deps.store.read.get<{ value: Buffer }>('SELECT value FROM kv WHERE key = $1', [key]);
    return row?.value.toString('utf8');
  };
  /** Each call's balance after its charge, or why it was refused. */
  const balances = (calls: readonly { readonly outcome: ChargeOutcome }[]) =>
    calls.map(({ outcome }) => (outcome.ok ? outcome.balance : outcome.reason));
  /** A live entry and one past its expiry, both paid for (2 credits). */
  async function liveAndExpired(id: number, live: string, expired: string): Promise<void> {
    await sets.setPaid(entry(id, live, 'value'), 1);
    await sets.setPaid({ ...entry(id, expired, 'old'), expiresAt: Date.now() - 1 }, 1);
  }

  it('is where metering leaves the charge to the write; SQLite, whose group commit holds both, has none', async () => {
    await start(1);
    expect(app.deps.ledger.paysInStatements).toBe(true);
    const sqlite = await startTestApp('sqlite');
    try {
      expect(sqlite.deps.ledger.paysInStatements).toBe(false);
      const unpaid = new KvSets(sqlite.deps.store, undefined, sqlite.deps.ledger);
      await expect(unpaid.setPaid(entry(1, 'k', 'v'), 1)).rejects.toThrow('commits no charge with a write');
    } finally {
      await sqlite.close();
    }
  });

  it('a POST /kv commits its charge and its value in one transaction, as many sets of a moment do theirs', async () => {
    await start(0);
    const token = await app.createToken(10);
    const { store } = app.deps;
    await store.writeOne('CREATE TABLE written_in (what text, tx bigint)');
    await store.writeOne(`CREATE FUNCTION note_tx() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO written_in VALUES (TG_TABLE_NAME, txid_current()); RETURN NULL; END $$`);
    await store.writeOne('CREATE TRIGGER note_tx AFTER UPDATE ON wallets FOR EACH ROW EXECUTE FUNCTION note_tx()');
    await store.writeOne('CREATE TRIGGER note_tx AFTER INSERT OR UPDATE ON kv FOR EACH ROW EXECUTE FUNCTION note_tx()');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        app.inject({ method: 'POST', url: `/kv/b/k${i}`, payload: 'v', headers: { 'x-token': token } }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const notes = await store.read.all<{ what: string; tx: number }>('SELECT what, tx FROM written_in');
    const txOf = (what: string) => new Set(notes.filter((note) => note.what === what).map((note) => note.tx));
    expect(notes.filter((note) => note.what === 'kv')).toHaveLength(6);
    expect([...txOf('kv')].every((tx) => txOf('wallets').has(tx))).toBe(true);
  });

  it('sets of one moment are charged in arrival order, each set written, the last of a key winning', async () => {
    const id = await start(10);
    const outcomes = await Promise.all([
      sets.setPaid(entry(id, 'x', 'first'), 1),
      sets.setPaid(entry(id, 'y', 'only'), 2),
      sets.setPaid(entry(id, 'x', 'last'), 1),
    ]);
    expect(balances(outcomes)).toEqual([9, 7, 6]);
    expect([await valueOf('x'), await valueOf('y')]).toEqual(['last', 'only']);
  });

  it('when the balance covers only some, the first ones in arrival order are paid and written, the rest refused unwritten', async () => {
    const id = await start(3);
    const outcomes = await Promise.all([
      sets.setPaid(entry(id, 'p', 'paid'), 2),
      sets.setPaid(entry(id, 'q', 'too dear'), 2),
      sets.setPaid(entry(id, 'p', 'refused'), 5),
      sets.setPaid(entry(id, 'r', 'paid too'), 1),
    ]);
    expect(balances(outcomes)).toEqual([1, 'insufficient', 'insufficient', 0]);
    expect([await valueOf('p'), await valueOf('q'), await valueOf('r')]).toEqual(['paid', undefined, 'paid too']);
  });

  it('a set of a wallet deleted meanwhile is refused as gone and writes nothing', async () => {
    const id = await start(5);
    await app.deps.store.writeOne('DELETE FROM wallets WHERE id = $1', [id]);
    const outcomes = await Promise.all([sets.setPaid(entry(id, 'g', 'v'), 1), sets.setPaid(entry(id, 'h', 'v'), 1)]);
    expect(balances(outcomes)).toEqual(['gone', 'gone']);
    expect([await valueOf('g'), await valueOf('h')]).toEqual([undefined, undefined]);
  });

  it('deletes of one moment are charged in arrival order; of two deletes of one key the first finds it, as one after the other would', async () => {
    const id = await start(10);
    const deletes = new KvDeletes(app.deps.store, undefined, app.deps.ledger);
    await liveAndExpired(id, 'x', 'old');
    const now = Date.now();
    const answers = await Promise.all([
      deletes.deletePaid(wanted(id, 'x'), now, 1),
      deletes.deletePaid(wanted(id, 'missing'), now, 1),
      deletes.deletePaid(wanted(id, 'x'), now, 1),
      deletes.deletePaid(wanted(id, 'old'), now, 1),
      deletes.deletePaid(wanted(id, 'y'), now, 9),
    ]);
    expect(balances(answers)).toEqual([7, 6, 5, 4, 'insufficient']);
    expect(answers.map((answer) => answer.result)).toEqual([true, false, false, false, false]);
    expect([await valueOf('x'), await valueOf('old')]).toEqual([undefined, undefined]);
  });

  it('reads of one moment are charged in arrival order, each answered with its own live value or none', async () => {
    const id = await start(10);
    await liveAndExpired(id, 'here', 'expired');
    const now = Date.now();
    const answers = await Promise.all([
      reads.getPaid(wanted(id, 'here'), now, 1),
      reads.getPaid(wanted(id, 'missing'), now, 2),
      reads.getPaid(wanted(id, 'expired'), now, 1),
      reads.getPaid(wanted(id, 'here'), now, 1),
    ]);
    expect(balances(answers)).toEqual([7, 5, 4, 3]);
    expect(answers.map((answer) => answer.result)).toEqual(['value', undefined, undefined, 'value']);
  });

  it('when the balance covers only some reads, the first ones in arrival order are paid and read, the rest refused unread', async () => {
    const id = await start(3);
    await sets.setPaid(entry(id, 'k', 'v'), 1);
    const wanted = { walletId: id, bucket: 'b', key: 'k' };
    const answers = await Promise.all([
      reads.getPaid(wanted, Date.now(), 1),
      reads.getPaid(wanted, Date.now(), 2),
      reads.getPaid(wanted, Date.now(), 1),
    ]);
    expect(balances(answers)).toEqual([1, 'insufficient', 0]);
    expect(answers.map((answer) => answer.result)).toEqual(['v', undefined, 'v']);
    await app.deps.store.writeOne('DELETE FROM wallets WHERE id = $1', [id]);
    const gone = await reads.getPaid(wanted, Date.now(), 1);
    expect([gone.outcome, gone.result]).toEqual([{ ok: false, reason: 'gone' }, undefined]);
  });
});

// What the database is sent for one call, read off the call's spans (a span per store call, with its text).
describe.runIf(STORE_KINDS.includes('postgres'))('one call, one statement, its charge included (PostgreSQL)', () => {
  const collector = useCollector();
  const get = useTestApp('postgres', { env: collector.env });

  async function statementsOf(method: 'GET' | 'POST' | 'DELETE', token: string): Promise<string[]> {
    const payload = method === 'POST' ? 'v' : undefined;
    const res = await get().inject({ method, url: '/kv/b/one', payload, headers: { 'x-token': token } });
    expect([res.statusCode, res.headers['x-cost']]).toEqual([200, '1']);
    await get().deps.tracing?.flush();
    const request = collector.spans.find(
      (span) => span.attributes['coinop.request_id'] === res.headers['x-request-id'],
    );
    return collector.spans
      .filter((span) => span.parentSpanId === request?.spanId)
      .map((span) => String(span.attributes['db.query.text']));
  }

  it('a POST /kv sends one statement that charges and writes; a GET /kv one that charges and reads; a DELETE one that charges and deletes', async () => {
    const token = await get().createToken(10);
    // The first call of a token looks its wallet up; the calls after it find it cached.
    await statementsOf('POST', token);
    const set = await statementsOf('POST', token);
    expect(set).toHaveLength(1);
    expect(set[0]).toMatch(/UPDATE wallets[\s\S]*INSERT INTO kv/);
    const read = await statementsOf('GET', token);
    expect(read).toHaveLength(1);
    expect(read[0]).toMatch(/UPDATE wallets[\s\S]*JOIN kv/);
    const removed = await statementsOf('DELETE', token);
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatch(/UPDATE wallets[\s\S]*DELETE FROM kv/);
  });
});
