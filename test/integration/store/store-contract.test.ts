import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';
import { openStore } from '../../../src/store/open-store.js';
import type { ManyStatement, Store } from '../../../src/store/store.js';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import type { AlsoStatement, BulkInsert } from '../../../src/store/bulk-insert.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two scratch tables, written the same way on both engines. */
const SCHEMA = [
  'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)',
  'CREATE TABLE jobs (id INTEGER PRIMARY KEY, claimed_by TEXT)',
  'CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)',
  // A statement on the view touches `items` without naming it.
  'CREATE VIEW item_names AS SELECT id, name FROM items',
];

const INSERT_ITEMS: ManyStatement = {
  sql: 'INSERT INTO items (id, name) VALUES ($1, $2) RETURNING id',
  columns: { types: ['int', 'text'], sql: (rows) => `INSERT INTO items (id, name) SELECT * FROM ${rows} RETURNING id` },
  touches: ['items'],
};

describeEachStore('the store contract', (kind) => {
  let database: ScratchDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await scratchDatabase(kind);
    store = openStore(database.url);
    await store.migrate();
    for (const statement of SCHEMA) await store.writeOne(statement);
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });
  beforeEach(async () => {
    await store.write(async (tx) => {
      for (const table of ['items', 'jobs', 'counters']) await tx.run(`DELETE FROM ${table}`);
    });
  });
  const names = async () =>
    (await store.read.all<{ name: string }>('SELECT name FROM items ORDER BY id')).map((row) => row.name);

  it('writeOne returns the rows of RETURNING, and reads see them once it resolves', async () => {
    expect(
      await store.writeOne('INSERT INTO items (id, name) VALUES ($1, $2) RETURNING id', [1, 'a'], {
        touches: ['items'],
      }),
    ).toEqual([{ id: 1 }]);
    expect(await names()).toEqual(['a']);
  });

  it('writeDeferred returns the rows at once; reads see them once durable resolves', async () => {
    const { rows, durable } = await store.writeDeferred<{ id: number }>(
      'INSERT INTO items (id, name) VALUES ($1, $2) RETURNING id',
      [2, 'b'],
    );
    expect(rows).toEqual([{ id: 2 }]);
    await durable;
    expect(await names()).toEqual(['b']);
  });

  it('reads never see a unit that has not committed', async () => {
    const seen = await store.write(async (tx) => {
      await tx.run('INSERT INTO items (id, name) VALUES ($1, $2)', [3, 'c']);
      return names();
    });
    expect(seen).toEqual([]);
    expect(await names()).toEqual(['c']);
  });

  it('a unit that throws leaves nothing behind, and the next write is unaffected', async () => {
    const failing = store.write(async (tx) => {
      await tx.run('INSERT INTO items (id, name) VALUES ($1, $2)', [4, 'gone']);
      throw new Error('unit failed');
    });
    await expect(failing).rejects.toThrow('unit failed');
    await store.writeOne('INSERT INTO items (id, name) VALUES ($1, $2)', [5, 'kept']);
    expect(await names()).toEqual(['kept']);
  });

  it('lockRow makes two concurrent read-modify-write units on one row run one after the other (no lost update)', async () => {
    await store.writeOne('INSERT INTO counters (id, n) VALUES (1, 0)');
    const increment = () =>
      store.write(async (tx) => {
        await tx.lockRow('counters', { id: 1 });
        const row = await tx.get<{ n: number }>('SELECT n FROM counters WHERE id = $1', [1]);
        await sleep(50); // long enough for the other unit to read the same value, were it not waiting
        await tx.run('UPDATE counters SET n = $1 WHERE id = $2', [(row?.n ?? 0) + 1, 1]);
      });
    await Promise.all([increment(), increment()]);
    expect(await store.read.get('SELECT n FROM counters WHERE id = 1')).toEqual({ n: 2 });
  });

  it('locks.forUpdate on a read in a unit makes concurrent read-modify-writes of that row run one after the other', async () => {
    await store.writeOne('INSERT INTO counters (id, n) VALUES (2, 0)');
    const increment = () =>
      store.write(async (tx) => {
        const row = await tx.get<{ n: number }>(`SELECT n FROM counters WHERE id = $1${tx.locks.forUpdate}`, [2]);
        await sleep(50);
        await tx.run('UPDATE counters SET n = $1 WHERE id = $2', [(row?.n ?? 0) + 1, 2]);
      });
    await Promise.all([increment(), increment()]);
    expect(await store.read.get('SELECT n FROM counters WHERE id = 2')).toEqual({ n: 2 });
  });

  it('claims with locks.skipLocked: concurrent claimers each get different rows, and every row is claimed once', async () => {
    await store.executeMany({ sql: 'INSERT INTO jobs (id) VALUES ($1)' }, [[1], [2], [3], [4]]);
    const claim = (who: string) =>
      store.write(async (tx) => {
        const due = await tx.all<{ id: number }>(
          `SELECT id FROM jobs WHERE claimed_by IS NULL ORDER BY id LIMIT 2${tx.locks.skipLocked()}`,
        );
        await sleep(50); // the other claimer runs meanwhile: it must pass these rows over, not wait for them
        for (const { id } of due) await tx.run('UPDATE jobs SET claimed_by = $1 WHERE id = $2', [who, id]);
        return due.map((row) => row.id);
      });
    const [first, second] = await Promise.all([claim('a'), claim('b')]);
    expect([...first, ...second].sort()).toEqual([1, 2, 3, 4]);
    expect(await store.read.all('SELECT id FROM jobs WHERE claimed_by IS NULL')).toEqual([]);
  });

  it('a statement using store.locks.skipLocked outside a unit passes over rows a unit holds', async () => {
    await store.executeMany({ sql: 'INSERT INTO jobs (id) VALUES ($1)' }, [[1], [2]]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const taken = new Promise<void>((resolve) => (locked = resolve));
    const holding = store.write(async (tx) => {
      await tx.lockRow('jobs', { id: 1 });
      locked();
      await gate;
    });
    await taken;
    const deleting = store.writeOne<{ id: number }>(
      `DELETE FROM jobs WHERE id IN (SELECT id FROM jobs ORDER BY id LIMIT 2${store.locks.skipLocked()}) RETURNING id`,
      [],
      { touches: ['jobs'] },
    );
    // PostgreSQL skips the held row and answers while the unit still runs; SQLite runs it after the unit (one writer).
    await Promise.race([deleting, sleep(100)]);
    release();
    await holding;
    const deleted = (await deleting).map((row) => row.id).sort();
    expect(deleted).toEqual(kind === 'postgres' ? [2] : [1, 2]);
  });

  it('insertRows appends a batch larger than one chunk, row after row, and writes none of it when one row fails', async () => {
    const insert: BulkInsert = { table: 'items', columns: ['id', 'name'], types: ['int', 'text'] };
    const values = Array.from({ length: 120 }, (_, i) => [i + 1, `n${i + 1}`]).flat();
    await store.insertRows(insert, values);
    const rows = await store.read.all<{ id: number; name: string }>('SELECT id, name FROM items ORDER BY id');
    expect(rows).toHaveLength(120);
    expect(rows[0]).toEqual({ id: 1, name: 'n1' });
    expect(rows[119]).toEqual({ id: 120, name: 'n120' });
    // Row 200 is new, row 1 exists: the primary key refuses the batch as a whole.
    await expect(store.insertRows(insert, [200, 'new', 1, 'again'])).rejects.toThrow();
    expect(await store.read.get<{ id: number }>('SELECT id FROM items WHERE id = 200')).toBeUndefined();
  });

  it('insertRows writes the rows a batch implies (its also statements) with it, in one atomic write', async () => {
    const countNames: AlsoStatement = {
      sql: 'INSERT INTO counters (id, n) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET n = counters.n + excluded.n',
      columns: {
        types: ['int', 'int'],
        sql: (rows) =>
          `INSERT INTO counters (id, n) SELECT * FROM ${rows} ON CONFLICT (id) DO UPDATE SET n = counters.n + excluded.n`,
      },
    };
    const insert: BulkInsert = {
      table: 'items',
      columns: ['id', 'name'],
      types: ['int', 'text'],
      also: [countNames, countNames],
    };
    await store.insertRows(insert, [1, 'a', 2, 'b'], { alsoRows: [[[7, 2]], []] });
    await store.insertRows(insert, [3, 'c'], { alsoRows: [[[7, 1]], [[8, 5]]], syncLater: true });
    expect(await store.read.all('SELECT id, n FROM counters ORDER BY id')).toEqual([
      { id: 7, n: 3 },
      { id: 8, n: 5 },
    ]);
    // A batch whose rows fail writes none of what it implies, and the reverse.
    await expect(store.insertRows(insert, [1, 'again'], { alsoRows: [[[7, 100]], []] })).rejects.toThrow();
    await expect(store.insertRows(insert, [4, 'd'], { alsoRows: [[[7, 1]], [[9, null]]] })).rejects.toThrow();
    expect(await store.read.all('SELECT id, n FROM counters ORDER BY id')).toEqual([
      { id: 7, n: 3 },
      { id: 8, n: 5 },
    ]);
    expect(await names()).toEqual(['a', 'b', 'c']);
  });

  it('executeMany runs a statement for every row and returns every row of RETURNING, with or without a column form', async () => {
    const rows = [
      [10, 'x'],
      [11, 'y'],
      [12, 'z'],
    ];
    const returned = await store.executeMany<{ id: number }>(INSERT_ITEMS, rows);
    expect(returned.map((row) => row.id).sort()).toEqual([10, 11, 12]);
    const { columns: _ignored, ...rowForm } = INSERT_ITEMS;
    expect(await store.executeMany(rowForm, [[13, 'w']])).toEqual([{ id: 13 }]);
    expect(await store.executeMany(INSERT_ITEMS, [])).toEqual([]);
    expect(await names()).toEqual(['x', 'y', 'z', 'w']);
  });

  it('column arrays carry every text as written: quotes, backslashes, the word NULL, separators, non-ASCII, and NULL itself', async () => {
    // Texts with nothing to escape (PostgreSQL's one-join path) and texts with quotes or backslashes (element by element).
    const plain = ['', 'NULL', 'null', ' padded ', 'x,y', '{z}', '{', 'tab\there', 'new\nline', "it's", 'é ✓ 😀'];
    const texts = ['"', '\\', '\\"', '""', 'a "b", c', '\\x41', '{"}'];
    const insert: BulkInsert = { table: 'items', columns: ['id', 'name'], types: ['int', 'text'] };
    await store.insertRows(
      insert,
      plain.flatMap((text, i) => [i + 1, text]),
    );
    await store.insertRows(
      insert,
      texts.flatMap((text, i) => [100 + i, text]),
    );
    expect(await names()).toEqual([...plain, ...texts]);
    // A NULL among texts, through a column form.
    await store.executeMany(
      {
        sql: 'INSERT INTO jobs (id, claimed_by) VALUES ($1, $2)',
        columns: {
          types: ['bigint', 'text'],
          sql: (rows) => `INSERT INTO jobs (id, claimed_by) SELECT * FROM ${rows}`,
        },
      },
      [
        [1, null],
        [2, '"q"'],
        [3, 'NULL'],
      ],
    );
    expect(await store.read.all('SELECT id, claimed_by FROM jobs ORDER BY id')).toEqual([
      { id: 1, claimed_by: null },
      { id: 2, claimed_by: '"q"' },
      { id: 3, claimed_by: 'NULL' },
    ]);
    if (kind === 'sqlite') return; // runs row by row: no column arrays
    // Texts matched as parameters, as the paid reads' keys are (a statement that returns what it found).
    const lookup: ManyStatement = {
      sql: 'SELECT 1 AS i, id FROM items WHERE name = $1',
      columns: {
        types: ['text'],
        sql: (rows) =>
          `SELECT wanted.i, items.id FROM ${rows} WITH ORDINALITY AS wanted (name, i) JOIN items ON items.name = wanted.name ORDER BY wanted.i`,
      },
    };
    const idsOf = (wanted: string[]) =>
      store.executeMany<{ i: number; id: number }>(
        lookup,
        wanted.map((text) => [text]),
      );
    expect(await idsOf(plain)).toEqual(plain.map((_, i) => ({ i: i + 1, id: 1 + i })));
    expect(await idsOf(texts)).toEqual(texts.map((_, i) => ({ i: i + 1, id: 100 + i })));
  });

  it('executeMany is atomic: one failing row writes none of them, with or without a column form', async () => {
    await store.writeOne('INSERT INTO items (id, name) VALUES (1, $1)', ['taken']);
    const clash = [
      [20, 'new'],
      [1, 'duplicate'],
    ];
    await expect(store.executeMany(INSERT_ITEMS, clash)).rejects.toThrow();
    await expect(store.executeMany({ sql: INSERT_ITEMS.sql }, clash)).rejects.toThrow();
    expect(await names()).toEqual(['taken']);
  });

  it('executeMany inside a unit is rolled back with the unit', async () => {
    const failing = store.write(async (tx) => {
      await tx.executeMany(INSERT_ITEMS, [
        [30, 'a'],
        [31, 'b'],
      ]);
      throw new Error('unit failed');
    });
    await expect(failing).rejects.toThrow('unit failed');
    expect(await names()).toEqual([]);
  });

  it('storedText keeps every code point, U+0000 included, through a write and a read', async () => {
    const value = 'a\u0000b😀';
    await store.writeOne('INSERT INTO kv (wallet_id, bucket, key, value, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      1,
      'b',
      'k',
      store.storedText(value),
      0,
    ]);
    const row = await store.read.get<{ value: string | Buffer }>('SELECT value FROM kv WHERE key = $1', ['k']);
    expect(row === undefined ? undefined : row.value.toString()).toBe(value);
  });

  it('a statement declared to touch a table sees every earlier write to it, even one SQLite still holds, whatever its text names', async () => {
    // SQLite's writer lane (not on Store): a write it holds.
    const lane = kind === 'sqlite' ? (store as SqliteStore).lane : undefined;
    if (lane !== undefined) {
      // Held while nothing is open: the declared statement opens the group and must apply it first.
      lane.hold('items', (run) => run('INSERT INTO items (id, name) VALUES ($1, $2)', [40, 'held']));
    } else {
      await store.writeOne('INSERT INTO items (id, name) VALUES ($1, $2)', [40, 'held']);
    }
    const rows = await store.writeOne<{ name: string }>('SELECT name FROM item_names WHERE id = $1', [40], {
      touches: ['items'],
    });
    expect(rows).toEqual([{ name: 'held' }]);
  });
});
