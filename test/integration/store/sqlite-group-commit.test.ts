// SQLite only: group commit, the WAL fsync off the event loop and held writes are SQLite's engine
// mechanisms (PostgreSQL commits each unit itself); their outward behaviour is covered on both stores elsewhere.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../../src/store/store.js';
import { heldFsync } from '../../helpers/held-fsync.js';
import { settled, turn } from '../../helpers/wait.js';

const INSERT_SECRET = 'INSERT INTO service_secrets (name, value, created_at) VALUES ($1, $2, $3)';

describe('SQLite group commit', () => {
  let dir: string;
  let store: Store | undefined;
  let heldDisk: ReturnType<typeof heldFsync> | undefined;
  afterEach(async () => {
    heldDisk?.release();
    heldDisk = undefined;
    await store?.close().catch(() => undefined);
    store = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(held?: ReturnType<typeof heldFsync>, fsyncsInFlight?: number): Promise<SqliteStore> {
    heldDisk = held;
    dir = mkdtempSync(join(tmpdir(), 'coinop-group-'));
    const opened = openSqliteStore(join(dir, 'coinop.db'), { fsync: held?.fsync, fsyncsInFlight });
    store = opened;
    await opened.migrate();
    return opened;
  }

  it('answers a write only after the WAL fsync that covers it completes', async () => {
    const disk = heldFsync();
    const sqlite = await open(disk);
    const write = sqlite.writeOne(INSERT_SECRET, ['a', 'x', 1]);
    expect(await settled(write)).toBe('pending');
    expect(disk.calls).toBe(1);
    disk.complete(0);
    expect(await settled(write)).toBe('resolved');
  });

  /** One write per event-loop turn, so each is its own group commit. */
  async function writesInTurns(sqlite: Store, names: readonly string[]): Promise<Promise<unknown>[]> {
    const writes: Promise<unknown>[] = [];
    for (const name of names) {
      const write = sqlite.writeOne(INSERT_SECRET, [name, 'x', 1]);
      write.catch(() => undefined); // asserted by the test; not an unhandled rejection meanwhile
      writes.push(write);
      await turn();
    }
    return writes;
  }

  it('by default runs one fsync at a time: commits made while it runs wait for the next, which covers them all', async () => {
    const disk = heldFsync();
    const sqlite = await open(disk);
    const [first, second, third] = (await writesInTurns(sqlite, ['a', 'b', 'c'])) as [
      Promise<unknown>,
      Promise<unknown>,
      Promise<unknown>,
    ];
    expect(disk.calls).toBe(1);
    disk.complete(0);
    expect(await settled(first)).toBe('resolved');
    expect(await settled(second)).toBe('pending');
    expect(disk.calls).toBe(2); // one fsync for both commits that waited
    disk.complete(1);
    expect(await settled(second)).toBe('resolved');
    expect(await settled(third)).toBe('resolved');
    expect(disk.calls).toBe(2);
  });

  it('with two in flight, runs two fsyncs at once, each on its own descriptor; later commits wait for the next, which covers them all', async () => {
    const disk = heldFsync();
    const sqlite = await open(disk, 2);
    const [first, second, third, fourth] = (await writesInTurns(sqlite, ['a', 'b', 'c', 'd'])) as [
      Promise<unknown>,
      Promise<unknown>,
      Promise<unknown>,
      Promise<unknown>,
    ];
    expect(disk.calls).toBe(2); // two fsyncs in flight, the later commits queue behind them
    // Linux reports a write-back error once per open file: two fsyncs sharing one would split it.
    expect(disk.descriptor(0)).not.toBe(disk.descriptor(1));
    disk.complete(0);
    expect(await settled(first)).toBe('resolved');
    expect(await settled(second)).toBe('pending');
    expect(disk.calls).toBe(3);
    disk.complete(1);
    expect(await settled(second)).toBe('resolved');
    expect(await settled(third)).toBe('pending');
    disk.complete(2);
    expect(await settled(third)).toBe('resolved');
    expect(await settled(fourth)).toBe('resolved');
    expect(disk.calls).toBe(3);
  });

  it('refuses a write whose own fsync succeeded when an fsync that ran alongside failed first', async () => {
    const disk = heldFsync();
    const sqlite = await open(disk, 2);
    const [first, second] = (await writesInTurns(sqlite, ['a', 'b'])) as [Promise<unknown>, Promise<unknown>];
    expect(disk.calls).toBe(2);
    disk.complete(0, Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    await expect(first).rejects.toThrow('EIO');
    disk.complete(1);
    await expect(second).rejects.toThrow('EIO');
  });

  it('closes only once no fsync runs: one that started earlier and ends last keeps its descriptor', async () => {
    const disk = heldFsync();
    const sqlite = await open(disk, 2);
    const [first, second] = (await writesInTurns(sqlite, ['a', 'b'])) as [Promise<unknown>, Promise<unknown>];
    const closed = sqlite.close();
    await turn();
    disk.complete(1);
    expect(await settled(second)).toBe('resolved');
    disk.complete(2); // the close's own round
    expect(await settled(closed)).toBe('pending'); // the first fsync still runs on its descriptor
    disk.complete(0);
    expect(await settled(first)).toBe('resolved');
    expect(await settled(closed)).toBe('resolved');
    store = undefined;
  });

  it('fails the writes an fsync covered when it fails: nothing is acknowledged', async () => {
    const disk = heldFsync();
    const sqlite = await open(disk);
    const write = sqlite.writeOne(INSERT_SECRET, ['a', 'x', 1]);
    await turn();
    disk.complete(0, Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    await expect(write).rejects.toThrow('EIO');
    // The kernel reports a lost write-back once: every later commit is refused too, never acknowledged.
    await expect(sqlite.writeOne(INSERT_SECRET, ['b', 'x', 1])).rejects.toThrow('EIO');
    expect(disk.calls).toBe(1);
  });

  it('with the real fsync, acknowledged writes are in the database file after a reopen', async () => {
    const sqlite = await open();
    await Promise.all(Array.from({ length: 50 }, (_, i) => sqlite.writeOne(INSERT_SECRET, [`k${i}`, 'x', i])));
    const path = join(dir, 'coinop.db');
    await sqlite.close();
    store = openSqliteStore(path);
    const row = await store.read.get<{ n: number }>('SELECT COUNT(*) AS n FROM service_secrets WHERE name LIKE $1', [
      'k%',
    ]);
    expect(row?.n).toBe(50);
  });

  it('keeps the undo pages of a unit in memory: no temp file, so a full temp directory cannot fail writes', async () => {
    const sqlite = await open();
    await sqlite.write(async (tx) => {
      await tx.run('CREATE TABLE filler (n INTEGER PRIMARY KEY, text TEXT NOT NULL)');
      for (let n = 0; n < 400; n++) await tx.run('INSERT INTO filler (n, text) VALUES ($1, $2)', [n, 'x'.repeat(1000)]);
    });
    const sqliteTempFiles = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).includes('etilqs_');
        } catch {
          return false; // closed meanwhile
        }
      });
    // Rewriting ~100 committed pages inside the unit's savepoint keeps ~400 KiB of undo pages, past SQLite's 64 KiB spill.
    const during = await sqlite.write(async (tx) => {
      await tx.run('UPDATE filler SET text = $1', ['y'.repeat(1000)]);
      return sqliteTempFiles();
    });
    expect(during).toEqual([]);
  });

  it('applies a held write before a statement declared to touch its table, and not before one declared to touch others', async () => {
    const sqlite = await open();
    const applied: string[] = [];
    sqlite.lane.hold('wallets', (run) => {
      applied.push('held');
      run('INSERT INTO wallets (hash, balance, created_at, last_used_at) VALUES ($1, $2, $3, $3)', ['h', 7, 1]);
    });
    const other = sqlite.writeDeferred(INSERT_SECRET, ['a', 'x', 1], { touches: ['service_secrets'] });
    expect(applied).toEqual([]);
    const read = await sqlite.writeDeferred<{ balance: number }>('SELECT balance FROM wallets WHERE hash = $1', ['h'], {
      touches: ['wallets'],
    });
    expect(applied).toEqual(['held']);
    expect(read.rows).toEqual([{ balance: 7 }]);
    await Promise.all([(await other).durable, read.durable]);
  });

  it('applies every held write before a statement that declares nothing, whatever its text names', async () => {
    const sqlite = await open();
    await sqlite.writeOne('CREATE VIEW balances AS SELECT hash, balance FROM wallets');
    const applied: string[] = [];
    sqlite.lane.hold('wallets', (run) => {
      applied.push('held');
      run('INSERT INTO wallets (hash, balance, created_at, last_used_at) VALUES ($1, $2, $3, $3)', ['h', 7, 1]);
    });
    // The text never says "wallets", yet the view reads it: only a declaration can tell, so undeclared means everything.
    const read = await sqlite.writeDeferred<{ balance: number }>('SELECT balance FROM balances WHERE hash = $1', ['h']);
    expect(applied).toEqual(['held']);
    expect(read.rows).toEqual([{ balance: 7 }]);
    await read.durable;
  });

  it('applies held writes before the commit even when nothing else names their table', async () => {
    const sqlite = await open();
    sqlite.lane.hold('wallets', (run) =>
      run('INSERT INTO wallets (hash, balance, created_at, last_used_at) VALUES ($1, $2, $3, $3)', ['h', 7, 1]),
    );
    await sqlite.writeOne(INSERT_SECRET, ['a', 'x', 1]);
    expect(await sqlite.read.get('SELECT balance FROM wallets WHERE hash = $1', ['h'])).toEqual({ balance: 7 });
  });

  it('rolls the whole group back when a held write cannot be applied', async () => {
    const sqlite = await open();
    const write = sqlite.writeOne(INSERT_SECRET, ['a', 'x', 1]);
    sqlite.lane.hold('wallets', () => {
      throw new Error('held write failed');
    });
    await expect(write).rejects.toThrow('held write failed');
    expect(await sqlite.read.get('SELECT name FROM service_secrets WHERE name = $1', ['a'])).toBeUndefined();
    // The next group is unaffected.
    await sqlite.writeOne(INSERT_SECRET, ['b', 'x', 1]);
    expect(await sqlite.read.get('SELECT name FROM service_secrets WHERE name = $1', ['b'])).toEqual({ name: 'b' });
  });

  it('when SQLite rolls a whole group back (disk full), fails every write of it and starts the next group afresh', async () => {
    const sqlite = await open();
    await sqlite.writeOne(INSERT_SECRET, ['before', 'x', 1]);
    const [{ page_count: pages }] = (await sqlite.writeOne<{ page_count: number }>('PRAGMA page_count')) as [
      { page_count: number },
    ];
    // The database may not grow: a write that needs a new page fails with SQLITE_FULL, which rolls back the whole transaction.
    await sqlite.writeOne(`PRAGMA max_page_count = ${pages}`);
    const fits = sqlite.writeOne(INSERT_SECRET, ['fits', 'x', 2]);
    const tooBig = sqlite.writeOne(INSERT_SECRET, ['too-big', 'x'.repeat(100_000), 3]);
    const after = sqlite.writeOne(INSERT_SECRET, ['after', 'x', 4]);
    const outcomes = await Promise.allSettled([fits, tooBig, after]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    const names = await sqlite.read.all<{ name: string }>('SELECT name FROM service_secrets ORDER BY name');
    expect(names.map((row) => row.name)).toEqual(['after', 'before']);
  });

  it('binds statements whose placeholders repeat or come out of order', async () => {
    const sqlite = await open();
    await sqlite.writeOne('INSERT INTO service_secrets (created_at, value, name) VALUES ($3, $2, $1)', ['n', 'v', 5]);
    expect(
      await sqlite.read.get('SELECT name, value, created_at FROM service_secrets WHERE name = $1 AND created_at = $2', [
        'n',
        5,
      ]),
    ).toEqual({
      name: 'n',
      value: 'v',
      created_at: 5,
    });
    expect(await sqlite.read.get('SELECT $1 + $1 AS twice, $2 AS flag', [21, true])).toEqual({ twice: 42, flag: 1 });
  });
});
