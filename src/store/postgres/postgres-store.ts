import pg from 'pg';
import type { RunResult, Sql, Store } from '../store.js';
import { normaliseParam } from '../params.js';
import { applyPostgresMigrations } from './postgres-migrate.js';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** BIGINT columns hold epoch milliseconds and credits, all well inside Number's exact range. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

interface Queryable {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
}

/**
 * Statements run as named prepared statements: each connection parses and plans a statement once
 * instead of on every call (the statement texts are the code's own, a bounded set).
 */
const statementNames = new Map<string, string>();
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `s${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return name;
}

function executor(target: Queryable): Sql {
  const query = (sql: string, params?: readonly unknown[]) =>
    target.query({ text: sql, name: statementName(sql), ...(params === undefined ? {} : { values: params.map(normaliseParam) }) });
  return {
    all: async <T>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows as T[],
    get: async <T>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows[0] as T | undefined,
    run: async (sql: string, params?: readonly unknown[]): Promise<RunResult> => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
  };
}

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock

export function openPostgresStore(url: string, options: { maxConnections?: number } = {}): Store {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 20, types });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const read = executor(pool);

  async function write<T>(unit: (tx: Sql) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await unit(executor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        const code = (error as { code?: string }).code;
        if (attempt < 3 && code !== undefined && RETRYABLE.has(code)) continue;
        throw error;
      } finally {
        client.release();
      }
    }
  }

  return {
    dialect: 'postgres',
    read,
    write,
    writeOne: <T>(sql: string, params?: readonly unknown[]) => read.all<T>(sql, params),
    writeDeferred: async <T>(sql: string, params?: readonly unknown[]) => ({ rows: await read.all<T>(sql, params), durable: Promise.resolve() }),
    migrate: () => applyPostgresMigrations(pool),
    close: () => pool.end(),
  };
}
