import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { ManualClock, walletIdOf } from '../../helpers/app.js';
import { startRetention } from '../../../src/retention.js';
import type { Store } from '../../../src/store/store.js';

/**
 * The real store, except that the first write matching `holds` waits until `release()`; `reached`
 * resolves when that write arrives, and `busy` counts calls not yet answered.
 */
function holdingStore(store: Store, holds: (sql: string) => boolean) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  let held = false;
  let busy = 0;
  const track = async <T>(call: () => Promise<T>): Promise<T> => {
    busy++;
    try {
      return await call();
    } finally {
      busy--;
    }
  };
  const wrapped: Store = {
    ...store,
    read: {
      all: (sql, params) => track(() => store.read.all(sql, params)),
      get: (sql, params) => track(() => store.read.get(sql, params)),
      run: (sql, params) => track(() => store.read.run(sql, params)),
    },
    write: (unit) => track(() => store.write(unit)),
    writeOne: <T>(sql: string, params?: readonly unknown[]) =>
      track(async () => {
        if (!held && holds(sql)) {
          held = true;
          arrived();
          await gate;
        }
        return store.writeOne<T>(sql, params);
      }),
    writeDeferred: (sql, params) => track(() => store.writeDeferred(sql, params)),
    migrate: () => store.migrate(),
    close: () => store.close(),
  };
  return {
    store: wrapped,
    reached,
    release: () => release(),
    get busy() {
      return busy;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachStore('sweepers: stop', (kind) => {
  const clock = new ManualClock();
  const testApp = useTestApp(kind, { clock });

  it('stop() waits for the sweep in progress and resolves once its writes have landed', async () => {
    const app = testApp();
    const walletId = await walletIdOf(app.deps, await app.createToken(100));
    await app.deps.store.writeOne(
      'INSERT INTO kv (wallet_id, bucket, key, value, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [walletId, 's', 'gone', 'x', clock.now() - 1],
    );
    // The sweep's first delete (expired keys) is held: the sweep is in progress until the test lets it go.
    const held = holdingStore(app.deps.store, (sql) => sql.startsWith('DELETE FROM kv'));
    const stop = startRetention({ ...app.deps, store: held.store }, 'test-instance', 50);
    await held.reached;

    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    try {
      await sleep(300); // several intervals: ample time for a stop() that does not wait to resolve
      expect(stopped).toBe(false);
      expect(await app.deps.store.read.get('SELECT key FROM kv WHERE key = $1', ['gone'])).toBeDefined();
    } finally {
      held.release();
    }
    await stopping;
    // Everything the sweep started had finished, the held delete included.
    expect(held.busy).toBe(0);
    expect(await app.deps.store.read.get('SELECT key FROM kv WHERE key = $1', ['gone'])).toBeUndefined();
  });
});
