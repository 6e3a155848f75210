// SQLite only: the WAL fsync and its timing are SQLite's engine mechanism; PostgreSQL's counterpart
// (synchronous_commit off for read charges) is covered in test/integration/ledger/read-charges.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { heldFsync } from '../../helpers/held-fsync.js';
import type { Store } from '../../../src/store/store.js';
import { settled, sleep } from '../../helpers/wait.js';

const INSERT_SECRET = 'INSERT INTO service_secrets (name, value, created_at) VALUES ($1, $2, $3)';
const SYNC_LATER = { syncLater: true } as const;
/** The window under test: long enough to tell "before it" from "within it" on a loaded machine. */
const WINDOW_MS = 150;

/** Polls until `done` holds or `ms` pass; returns how long it took. */
async function within(ms: number, done: () => boolean): Promise<number> {
  const started = Date.now();
  while (!done() && Date.now() - started < ms) await sleep(2);
  return Date.now() - started;
}

describe('SQLite writes made durable later (the charges of read-only calls)', () => {
  let dir: string;
  let store: Store | undefined;
  let disk: ReturnType<typeof heldFsync>;
  afterEach(async () => {
    disk.release();
    await store?.close().catch(() => undefined);
    store = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(): Promise<Store> {
    disk = heldFsync();
    dir = mkdtempSync(join(tmpdir(), 'coinop-sync-later-'));
    store = openSqliteStore(join(dir, 'coinop.db'), { fsync: disk.fsync, lateSyncMs: WINDOW_MS });
    await store.migrate();
    // The migration's own commits are fsynced (and released) before the test holds the disk.
    disk.release();
    await store.writeOne(INSERT_SECRET, ['setup', 'x', 0]);
    disk.hold();
    return store;
  }

  it('answers at COMMIT, asks for no fsync then, and has one within the window without any later write', async () => {
    const sqlite = await open();
    const before = disk.calls;
    const started = Date.now();
    const { durable } = await sqlite.writeDeferred(INSERT_SECRET, ['read', 'x', 1], SYNC_LATER);
    expect(await settled(durable)).toBe('resolved');
    expect(disk.calls).toBe(before);
    // Committed: the reader connection sees it, though no fsync has run.
    expect(await sqlite.read.get('SELECT name FROM service_secrets WHERE name = $1', ['read'])).toEqual({
      name: 'read',
    });
    await within(WINDOW_MS * 10, () => disk.calls > before);
    const elapsed = Date.now() - started;
    expect(disk.calls).toBe(before + 1);
    expect(elapsed).toBeGreaterThanOrEqual(WINDOW_MS - 5);
    expect(elapsed).toBeLessThan(WINDOW_MS + 250);
    disk.complete(before);
    // No other fsync follows: one per window.
    await sleep(WINDOW_MS * 2);
    expect(disk.calls).toBe(before + 1);
  });

  it('arms one timer per window, not one per commit', async () => {
    const sqlite = await open();
    const before = disk.calls;
    for (let i = 0; i < 5; i++) {
      const { durable } = await sqlite.writeDeferred(INSERT_SECRET, [`read${i}`, 'x', i], SYNC_LATER);
      await durable;
      await sleep(5);
    }
    await within(WINDOW_MS * 10, () => disk.calls > before);
    await sleep(WINDOW_MS / 2);
    expect(disk.calls).toBe(before + 1);
  });

  it('a write of the same group waits for its fsync; the later write shares the group and is answered at COMMIT', async () => {
    const sqlite = await open();
    const before = disk.calls;
    const write = sqlite.writeOne(INSERT_SECRET, ['money', 'x', 1]);
    const read = await sqlite.writeDeferred(INSERT_SECRET, ['read', 'x', 2], SYNC_LATER);
    expect(await settled(read.durable)).toBe('resolved');
    expect(await settled(write)).toBe('pending');
    expect(disk.calls).toBe(before + 1); // the write's own fsync, asked for at COMMIT
    disk.complete(before);
    expect(await settled(write)).toBe('resolved');
    // That fsync covered the read too: no timer's fsync follows.
    await sleep(WINDOW_MS * 2);
    expect(disk.calls).toBe(before + 1);
  });

  it('the next write’s fsync covers earlier late commits, sooner than the window', async () => {
    const sqlite = await open();
    const before = disk.calls;
    const read = await sqlite.writeDeferred(INSERT_SECRET, ['read', 'x', 1], SYNC_LATER);
    await read.durable;
    const write = sqlite.writeOne(INSERT_SECRET, ['money', 'x', 2]);
    expect(await settled(write)).toBe('pending');
    expect(disk.calls).toBe(before + 1);
    disk.complete(before);
    expect(await settled(write)).toBe('resolved');
    await sleep(WINDOW_MS * 2);
    expect(disk.calls).toBe(before + 1); // the timer was disarmed: its commit is covered
  });

  it('a failed late fsync refuses every later write that waits for one', async () => {
    const sqlite = await open();
    const before = disk.calls;
    await (
      await sqlite.writeDeferred(INSERT_SECRET, ['read', 'x', 1], SYNC_LATER)
    ).durable;
    await within(WINDOW_MS * 10, () => disk.calls > before);
    disk.complete(before, Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    await expect(sqlite.writeOne(INSERT_SECRET, ['money', 'x', 2])).rejects.toThrow('EIO');
  });

  it('close makes late commits durable at once, and they are there after a reopen', async () => {
    const sqlite = await open();
    disk.release();
    await (
      await sqlite.writeDeferred(INSERT_SECRET, ['read', 'x', 1], SYNC_LATER)
    ).durable;
    const started = Date.now();
    await sqlite.close();
    expect(Date.now() - started).toBeLessThan(WINDOW_MS);
    store = openSqliteStore(join(dir, 'coinop.db'));
    expect(await store.read.get('SELECT name FROM service_secrets WHERE name = $1', ['read'])).toEqual({
      name: 'read',
    });
  });
});
