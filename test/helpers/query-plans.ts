import type { Sql, Store } from '../../src/store/store.js';

/** A statement as run: its text and parameters. */
export interface RunStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** `read`, recording every statement run through it (in `statements`, in order) before running it. */
export function recordingSql(read: Sql): { readonly sql: Sql; readonly statements: RunStatement[] } {
  const statements: RunStatement[] = [];
  const sql: Sql = {
    all: (text, params) => (statements.push({ sql: text, params: params ?? [] }), read.all(text, params)),
    get: (text, params) => (statements.push({ sql: text, params: params ?? [] }), read.get(text, params)),
    run: (text, params) => (statements.push({ sql: text, params: params ?? [] }), read.run(text, params)),
  };
  return { sql, statements };
}

/** A plan node of PostgreSQL's `EXPLAIN (ANALYZE, FORMAT JSON)`, as far as read here. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/**
 * Entries a plan read from tables and indexes: what each of its scans produced and what their filters dropped (a
 * sequential scan counts every row of the table; a bitmap's entries count in both its nodes).
 */
export function entriesRead(node: PlanNode): number {
  const own = / Scan$/.test(node['Node Type'])
    ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops']
    : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + entriesRead(child), 0);
}

/** PostgreSQL only: the entries `statement` reads when run (EXPLAIN ANALYZE runs it). */
export async function entriesReadBy(store: Store, statement: RunStatement): Promise<number> {
  const [row] = await store.read.all<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`,
    statement.params,
  );
  return entriesRead(row?.['QUERY PLAN'][0]?.Plan as PlanNode);
}

/** SQLite only: the lines of the plan of `statement` (EXPLAIN QUERY PLAN). */
export async function sqlitePlan(store: Store, statement: RunStatement): Promise<string[]> {
  return (await store.read.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement.sql}`, statement.params)).map(
    (row) => row.detail,
  );
}
