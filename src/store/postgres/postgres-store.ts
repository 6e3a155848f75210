import pg from 'pg';
import { insertRowsPostgres } from '../bulk-insert.js';
import { DEFAULT_POOL_SIZE } from '../store.js';
import type { ManyStatement, RunResult, Sql, Store, Unit } from '../store.js';
import { columnArrays, eachRow, POSTGRES_LOCKS, POSTGRES_MERGE_WALKS, selectRow } from '../intentions.js';
import { arrayLiterals, columnText } from './column-arrays.js';
import { normaliseParam } from '../params.js';
import { applyPostgresMigrations } from './postgres-migrate.js';
import { migrations } from '../migrations/migrations.js';
import { DeadlinedQuery, StatementDeadlines } from './statement-deadlines.js';
import { asStoreError } from '../store-errors.js';
import { withPooledClient } from './pooled-client.js';
import { BatchedDebits } from './batched-debits.js';
import { Availability } from '../availability.js';
import { keepPoolFull } from './pool-keeper.js';
import type { PostgresMetrics } from '../../observability/metrics.js';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** BIGINT columns hold epoch milliseconds and credits, all well inside Number's exact range. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
  }) as typeof pg.types.getTypeParser,
};

/** What statements run on: the pool, or a client checked out of it for a unit. */
interface Queryable {
  query(query: pg.Query, callback: (error: Error | null, result: pg.QueryResult) => void): unknown;
}

/** Runs `sql` on `target`, as the prepared statement `name` when one is given. */
type Submit = (
  target: Queryable,
  sql: string,
  values: unknown[] | undefined,
  name: string | undefined,
) => Promise<pg.QueryResult>;

/**
 * A Submit whose statements `deadlines` watches. Each goes to pg as a query made from its text, then named: given a
 * config object instead, pg copies it property by property, through their descriptors, before anything else (~1.3 µs
 * a statement against ~0.1, every statement of the hot path).
 */
function submitUnder(deadlines: StatementDeadlines): Submit {
  return (target, sql, values, name) =>
    new Promise((resolve, reject) => {
      const query = new DeadlinedQuery(deadlines, sql, values);
      // pg reads the name when the query is sent (a named query is prepared once per connection); its types omit it.
      if (name !== undefined) (query as { name?: string }).name = name;
      target.query(query, (error, result) => {
        deadlines.settled(query);
        if (error) reject(error);
        else resolve(result);
      });
    });
}

/**
 * Statements run as named prepared statements: each connection parses and plans a statement once
 * instead of on every call (the statement texts are the code's own, a bounded set). Where the server
 * side refuses a name (a pooler that does not keep prepared statements, a plan made stale by a schema
 * change under an older instance) the store stops naming statements and runs this one again unnamed:
 * those errors come before it executes.
 */
const UNNAMED_RETRY = new Set(['26000', '42P05', '0A000']); // no such prepared statement, already exists, cached plan changed

/** What every connection of one store shares: the statements' names, and how they are sent (under their deadlines). */
interface StoreStatements {
  readonly byText: Map<string, string>;
  enabled: boolean;
  readonly submit: Submit;
}

function executor(target: Queryable, statements: StoreStatements): Sql {
  const nameOf = (sql: string): string => {
    let name = statements.byText.get(sql);
    if (name === undefined) {
      name = `s${statements.byText.size + 1}`;
      statements.byText.set(sql, name);
    }
    return name;
  };
  const query = async (sql: string, params?: readonly unknown[]) => {
    const values = params === undefined ? undefined : params.map(normaliseParam);
    if (!statements.enabled) return statements.submit(target, sql, values, undefined);
    try {
      return await statements.submit(target, sql, values, nameOf(sql));
    } catch (error) {
      if (!UNNAMED_RETRY.has((error as { code?: string }).code ?? '')) throw error;
      statements.enabled = false;
      return statements.submit(target, sql, values, undefined);
    }
  };
  return {
    all: async <T>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows as T[],
    get: async <T>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows[0] as T | undefined,
    run: async (sql: string, params?: readonly unknown[]): Promise<RunResult> => ({
      changes: (await query(sql, params)).rowCount ?? 0,
    }),
  };
}

/** One statement over column arrays when the caller wrote that form, otherwise one statement per row. */
function executeMany<T>(sql: Sql, statement: ManyStatement, rows: readonly (readonly unknown[])[]): Promise<T[]> {
  if (rows.length === 0) return Promise.resolve([]);
  if (statement.columns === undefined) return eachRow<T>(sql, statement, rows);
  return sql.all<T>(columnText(statement.columns), arrayLiterals(columnArrays(rows), statement.columns.types));
}

function unitOn(sql: Sql): Unit {
  return {
    ...sql,
    locks: POSTGRES_LOCKS,
    lockRow: async (table, key) => {
      const { sql: select, params } = selectRow(table, key);
      await sql.get(`${select}${POSTGRES_LOCKS.forUpdate}`, params);
    },
    executeMany: (statement, rows) => executeMany(sql, statement, rows),
  };
}

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock

/**
 * Bounds on a database that is away or stuck (docs/reference.md#while-the-database-is-away): a connection, or a
 * free pooled client, within CONNECT_TIMEOUT_MS; a statement within STATEMENT_TIMEOUT_MS on the server
 * (it rolls back); and, should the server stop answering altogether, the client gives up a little later
 * (StatementDeadlines).
 */
export const CONNECT_TIMEOUT_MS = 5000;
export const STATEMENT_TIMEOUT_MS = 5000;
/** How much longer than the server's bound the client waits before it gives up on a silent server. */
const CLIENT_GRACE_MS = 1000;

export interface PostgresStoreOptions {
  /** Connections kept open at all times (see pool-keeper.ts). Default DEFAULT_POOL_SIZE. */
  readonly poolSize?: number;
  readonly connectTimeoutMs?: number;
  readonly statementTimeoutMs?: number;
  /** Offered the pool's use, read when /metrics is scraped. */
  readonly metrics?: PostgresMetrics;
}

export function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Store {
  const statementTimeoutMs = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
  const pool = new pg.Pool({
    connectionString: url,
    // A fixed size: `min` as large as `max`, so no idle connection is ever closed (pool-keeper.ts).
    max: poolSize,
    min: poolSize,
    types,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    statement_timeout: statementTimeoutMs,
  });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // And no client's 'error' may ever go unheard, whatever state pg-pool has it in (once in ~25 restarts under load a
  // connection's error found no listener and ended the process). Errors still reach the queries they fail, the pool
  // and withPooledClient still retire broken clients; this listener only keeps the event from being fatal.
  pool.on('connect', (client) => client.on('error', () => undefined));
  options.metrics?.watchPool(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
  // This store's statement names, and the client's bound on each statement sent on its connections.
  const deadlines = new StatementDeadlines(statementTimeoutMs + CLIENT_GRACE_MS);
  const submit = submitUnder(deadlines);
  const statements: StoreStatements = { byText: new Map(), enabled: true, submit };
  const pooled = executor(pool, statements);
  const availability = new Availability();
  const keeper = keepPoolFull(pool, { size: poolSize, available: () => availability.available });
  void keeper.fill();
  const guarded = <T>(call: () => Promise<T>): Promise<T> =>
    availability.guard(call).catch((error: unknown) => Promise.reject(asStoreError(error)));
  const read: Sql = {
    all: (sql, params) => guarded(() => pooled.all(sql, params)),
    get: (sql, params) => guarded(() => pooled.get(sql, params)),
    run: (sql, params) => guarded(() => pooled.run(sql, params)),
  };

  async function write<T>(unit: (tx: Unit) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await availability.guard(() =>
          withPooledClient(pool, async (client) => {
            const control = (sql: string) => submit(client, sql, undefined, undefined);
            await control('BEGIN');
            try {
              const result = await unit(unitOn(executor(client, statements)));
              await control('COMMIT');
              return result;
            } catch (error) {
              await control('ROLLBACK').catch(() => undefined);
              throw error;
            }
          }),
        );
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt < 3 && code !== undefined && RETRYABLE.has(code)) continue;
        throw asStoreError(error);
      }
    }
  }

  return {
    dialect: 'postgres',
    read,
    write,
    writeOne: <T>(sql: string, params?: readonly unknown[]) => read.all<T>(sql, params),
    writeDeferred: async <T>(sql: string, params?: readonly unknown[]) => ({
      rows: await read.all<T>(sql, params),
      durable: Promise.resolve(),
    }),
    // The column form is one statement (atomic by itself); the row form needs a unit to be atomic.
    executeMany: <T>(statement: ManyStatement, rows: readonly (readonly unknown[])[]) =>
      statement.columns === undefined
        ? write((tx) => tx.executeMany<T>(statement, rows))
        : executeMany<T>(read, statement, rows),
    // One statement, what the batch implies included (see BulkInsert.also): atomic by itself, no transaction of its own.
    insertRows: (insert, values, options) =>
      values.length === 0 ? Promise.resolve() : insertRowsPostgres(read, insert, values, options),
    locks: POSTGRES_LOCKS,
    mergeWalks: POSTGRES_MERGE_WALKS,
    storedText: (value) => Buffer.from(value, 'utf8'),
    // `this`: the store as the caller holds it (traced or not), which runs the batches' statements.
    debits(statements) {
      return new BatchedDebits(this, statements);
    },
    // Other instances write the same database.
    soleWriter: false,
    migrate: () =>
      applyPostgresMigrations(pool, migrations, statementTimeoutMs + CLIENT_GRACE_MS).catch((error: unknown) =>
        Promise.reject(asStoreError(error)),
      ),
    close: () => {
      keeper.stop();
      deadlines.stop();
      return pool.end();
    },
  };
}
