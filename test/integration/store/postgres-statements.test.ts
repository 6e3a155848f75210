import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';
import { openPostgresStore } from '../../../src/store/postgres/postgres-store.js';
import type { Store } from '../../../src/store/store.js';

/** Statements are prepared once per connection; a plan the server can no longer use must not fail the call. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL prepared statements', () => {
  let database: ScratchDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    // One connection, so the second call meets the statement the first one prepared.
    store = openPostgresStore(database.url, { poolSize: 1 });
    await store.writeOne('CREATE TABLE things (id INT)');
    await store.writeOne('INSERT INTO things VALUES (1)');
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  // First: the next test's stale plan makes the store stop naming statements.
  it('runs a statement as a named prepared statement of its connection, prepared once', async () => {
    const select = 'SELECT id FROM things WHERE id = $1';
    expect(await store.read.get(select, [1])).toEqual({ id: 1 });
    expect(await store.read.get(select, [2])).toBeUndefined();
    const prepared = await store.read.all<{ name: string }>(
      'SELECT name FROM pg_prepared_statements WHERE statement = $1',
      [select],
    );
    expect(prepared).toHaveLength(1);
    expect(prepared[0]?.name).toMatch(/^s\d+$/);
  });

  it('answers a statement whose prepared plan a schema change made stale, with the new shape', async () => {
    expect(await store.read.all('SELECT * FROM things')).toEqual([{ id: 1 }]);
    // Another session changes what the prepared statement would return.
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    await other.query('ALTER TABLE things ADD COLUMN label TEXT');
    await other.end();
    expect(await store.read.all('SELECT * FROM things')).toEqual([{ id: 1, label: null }]);
    expect(await store.read.all('SELECT * FROM things')).toEqual([{ id: 1, label: null }]);
  });
});
