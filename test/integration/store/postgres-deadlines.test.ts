import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';
import { openPostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { DEADLINE_SWEEP_MS } from '../../../src/store/postgres/statement-deadlines.js';
import { PROBE_INTERVAL_MS } from '../../../src/store/availability.js';
import { isStoreUnavailable } from '../../../src/store/store-errors.js';
import type { Store } from '../../../src/store/store.js';

/** The server's bound in these tests; the client's is a second more. */
const STATEMENT_TIMEOUT_MS = 1000;
const CLIENT_BOUND_MS = STATEMENT_TIMEOUT_MS + 1000;

/** A unit that lifts the server's own bound, then sleeps: only the client's bound can end it early. */
const sleepUnbounded = (store: Store, seconds: number) =>
  store.write(async (tx) => {
    await tx.run('SET LOCAL statement_timeout = 0');
    await tx.get(`SELECT pg_sleep(${seconds})`);
  });

/** The client's bound on a server that stops answering: a statement sent and not answered in time fails. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL statement deadlines', () => {
  let database: ScratchDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await scratchDatabase('postgres');
    // One connection: every statement meets the connection the one before it used, or its replacement.
    store = openPostgresStore(database.url, { poolSize: 1, statementTimeoutMs: STATEMENT_TIMEOUT_MS });
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('fails a statement the server has not answered within the bound as the store away, and drops its connection', async () => {
    const before = await store.read.get<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const started = performance.now();
    const error = await sleepUnbounded(store, 3).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    const tookMs = performance.now() - started;
    expect(isStoreUnavailable(error), String(error)).toBe(true);
    expect(tookMs).toBeGreaterThanOrEqual(CLIENT_BOUND_MS);
    expect(tookMs).toBeLessThan(CLIENT_BOUND_MS + 2 * DEADLINE_SWEEP_MS + 500);
    // The next statement (once the store tries the database again) runs on a new connection: the late one's was
    // destroyed, not handed out again. A timer may fire a few ms early against performance.now(), which the store's
    // window is measured on (libuv dates timers from the loop's cached time; CI once saw the read refused for it).
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS + 100));
    const after = await store.read.get<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(after?.pid).toBeDefined();
    expect(after?.pid).not.toBe(before?.pid);
  });

  it('counts a statement from when it is sent, not from when it was asked for', async () => {
    // The read waits for the only connection while the unit sleeps on it: the two together are longer than the
    // client's bound, the read alone well inside it (and inside the server's).
    const unit = sleepUnbounded(store, 1.6);
    const read = store.read.get('SELECT pg_sleep(0.95) AS slept');
    await expect(Promise.all([unit, read])).resolves.toEqual([undefined, { slept: '' }]);
  });
});
