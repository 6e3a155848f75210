import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type StoreKind = 'sqlite' | 'postgres';

/** The engines every store-touching suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const STORE_KINDS: readonly StoreKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface ScratchDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test: an SQLite file in a temp folder, or a new schema on the
 * PostgreSQL server of TEST_DATABASE_URL (selected through search_path, so the app sees an empty database).
 */
export async function scratchDatabase(kind: StoreKind): Promise<ScratchDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'coinop-test-'));
    return { url: `sqlite:${join(dir, 'coinop.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const base = process.env.TEST_DATABASE_URL as string;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}
