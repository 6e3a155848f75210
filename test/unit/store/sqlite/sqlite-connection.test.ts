// SQLite only: how SqliteConnection hands parameters to better-sqlite3 (each value an argument of its own, or one
// array or object) is that engine's mechanism; what the parameters mean is covered on both stores by store-contract.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { SqliteConnection } from '../../../../src/store/sqlite/sqlite-store.js';

describe('SqliteConnection parameters', () => {
  let db: Database.Database;
  let sql: SqliteConnection;
  beforeEach(() => {
    db = new Database(':memory:');
    db.exec('CREATE TABLE t (a, b, c)');
    sql = new SqliteConnection(db);
  });
  afterEach(() => db.close());

  const rows = () => db.prepare('SELECT a, b, c FROM t ORDER BY rowid').all();

  it('binds every kind of value in order, booleans as 0/1 and undefined as NULL', async () => {
    await sql.run('INSERT INTO t (a, b, c) VALUES ($1, $2, $3)', ['text', 1.5, 7n]);
    await sql.run('INSERT INTO t (a, b, c) VALUES ($1, $2, $3)', [null, undefined, true]);
    await sql.run('INSERT INTO t (a, b, c) VALUES ($1, $2, $3)', [false, Buffer.from('ab'), 0]);
    expect(rows()).toEqual([
      { a: 'text', b: 1.5, c: 7 },
      { a: null, b: null, c: 1 },
      { a: 0, b: Buffer.from('ab'), c: 0 },
    ]);
  });

  it('binds `$n` out of order by name', async () => {
    await sql.run('INSERT INTO t (a, b, c) VALUES ($2, $1, $2)', ['one', 'two']);
    expect(rows()).toEqual([{ a: 'two', b: 'one', c: 'two' }]);
  });

  it('refuses an array or object value rather than spreading it into the parameters after it', async () => {
    const refusal = /can only bind/;
    expect(() => sql.run('INSERT INTO t (a, b) VALUES ($1, $2)', [['x', 'y']])).toThrow(refusal);
    expect(() => sql.run('INSERT INTO t (a, b, c) VALUES ($1, $2, $3)', ['x', { a: 1 }, 'z'])).toThrow(refusal);
    expect(() => sql.allSync('INSERT INTO t (a, b) VALUES ($1, $2)', [['x', 'y']])).toThrow(refusal);
    expect(rows()).toEqual([]);
  });

  it('binds a statement with more parameters than are passed one by one', async () => {
    const count = 1500;
    const values = Array.from({ length: count * 3 }, (_, i) => i);
    const tuples = Array.from({ length: count }, (_, r) => `($${3 * r + 1}, $${3 * r + 2}, $${3 * r + 3})`);
    await sql.run(`INSERT INTO t (a, b, c) VALUES ${tuples.join(', ')}`, values);
    const stored = rows() as { a: number; b: number; c: number }[];
    expect(stored).toHaveLength(count);
    expect(stored[count - 1]).toEqual({ a: 4497, b: 4498, c: 4499 });
  });

  it('reads with the same parameters through get and allSync', async () => {
    await sql.run('INSERT INTO t (a, b, c) VALUES ($1, $2, $3)', ['k', 1, 2]);
    expect(await sql.get('SELECT b, c FROM t WHERE a = $1 AND b = $2', ['k', 1])).toEqual({ b: 1, c: 2 });
    expect(sql.allSync('SELECT a FROM t WHERE c = $1', [2])).toEqual([{ a: 'k' }]);
  });
});
