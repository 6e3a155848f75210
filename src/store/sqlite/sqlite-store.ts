import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RunResult, Sql, Store } from '../store.js';
import { normaliseParam } from '../params.js';
import { applySqliteMigrations } from './sqlite-migrate.js';
import { SqliteWriter } from './sqlite-writer.js';

type Statement = Database.Statement<Record<string, unknown>, unknown>;

/** `$1` → `@p1`: SQLite has no `$n` form that better-sqlite3 binds from an array. */
function toSqlite(sql: string): string {
  return sql.replace(/\$(\d+)/g, '@p$1');
}

function bindings(params: readonly unknown[] | undefined): Record<string, unknown> {
  const named: Record<string, unknown> = {};
  if (params) for (let i = 0; i < params.length; i++) named[`p${i + 1}`] = normaliseParam(params[i]);
  return named;
}

/** An Sql executor over one connection, with its own prepared-statement cache. */
export class SqliteConnection implements Sql {
  private readonly statements = new Map<string, Statement>();

  constructor(readonly db: Database.Database) {}

  prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(toSqlite(sql)) as Statement;
      this.statements.set(sql, statement);
    }
    return statement;
  }

  allSync<T>(sql: string, params?: readonly unknown[]): T[] {
    const statement = this.prepare(sql);
    if (!statement.reader) {
      statement.run(bindings(params));
      return [];
    }
    return statement.all(bindings(params)) as T[];
  }

  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return Promise.resolve(this.allSync<T>(sql, params));
  }

  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined> {
    const statement = this.prepare(sql);
    if (!statement.reader) {
      statement.run(bindings(params));
      return Promise.resolve(undefined);
    }
    return Promise.resolve(statement.get(bindings(params)) as T | undefined);
  }

  run(sql: string, params?: readonly unknown[]): Promise<RunResult> {
    const statement = this.prepare(sql);
    const changes = statement.reader ? statement.all(bindings(params)).length : statement.run(bindings(params)).changes;
    return Promise.resolve({ changes });
  }
}

export interface SqliteOptions {
  /** FULL fsyncs the WAL at every commit (power-loss safe); NORMAL survives a process crash only. */
  readonly synchronous?: 'FULL' | 'NORMAL';
}

export function openSqliteStore(path: string, options: SqliteOptions = {}): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const writer = new Database(path);
  writer.pragma('journal_mode = WAL');
  writer.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  writer.pragma('busy_timeout = 5000');
  // A second connection for reads: it only ever sees committed data, even while a group commit is open.
  const reader = new Database(path);
  reader.pragma('busy_timeout = 5000');
  reader.pragma('query_only = ON');
  const writeConnection = new SqliteConnection(writer);
  const readConnection = new SqliteConnection(reader);
  const writerLane = new SqliteWriter(writeConnection);

  return {
    dialect: 'sqlite',
    read: readConnection,
    write: (unit) => writerLane.write(unit),
    writeOne: (sql, params) => writerLane.writeOne(sql, params),
    writeDeferred: (sql, params) => writerLane.deferred(sql, params),
    migrate: async () => applySqliteMigrations(writer),
    close: async () => {
      await writerLane.drain();
      reader.close();
      writer.close();
    },
  };
}
