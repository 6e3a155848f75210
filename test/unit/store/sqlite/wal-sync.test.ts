import { fstatSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WalSync } from '../../../../src/store/sqlite/wal-sync.js';
import { heldFsync } from '../../../helpers/held-fsync.js';

/** What a WalSync callback reported, collected in order. */
function outcomes() {
  const seen: string[] = [];
  return {
    seen,
    done: (name: string) => (error: Error | null) =>
      seen.push(error === null ? `${name} ok` : `${name} ${error.message}`),
  };
}

const isOpen = (fd: number): boolean => {
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
};

describe('WalSync', () => {
  let dir: string;
  let wal: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'coinop-walsync-'));
    wal = join(dir, 'db-wal');
    writeFileSync(wal, 'frames');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('closed while an fsync runs: refuses later commits, keeps the descriptor until that fsync ends', () => {
    const disk = heldFsync();
    const sync = new WalSync(wal, { fsync: disk.fsync });
    const { seen, done } = outcomes();
    sync.whenDurable(done('a'));
    const fd = disk.descriptor(0);
    sync.close();
    sync.whenDurable(done('b'));
    expect(seen).toEqual(['b the WAL sync is closed']);
    expect(isOpen(fd)).toBe(true);
    disk.complete(0);
    expect(seen).toEqual(['b the WAL sync is closed', 'a ok']);
    expect(isOpen(fd)).toBe(false);
  });

  it('tells idle waiters only while nothing runs: one that starts an fsync holds back the next', () => {
    const disk = heldFsync();
    const sync = new WalSync(wal, { fsync: disk.fsync });
    const { seen, done } = outcomes();
    const idle: string[] = [];
    sync.whenDurable(done('a'));
    sync.whenIdle(() => {
      idle.push('first');
      sync.whenDurable(done('b')); // busy again
    });
    sync.whenIdle(() => idle.push('second'));
    disk.complete(0);
    expect(idle).toEqual(['first']);
    disk.complete(1);
    expect(idle).toEqual(['first', 'second']);
    expect(seen).toEqual(['a ok', 'b ok']);
  });

  it('answers a commit made from a callback with an fsync that starts after it', () => {
    const disk = heldFsync();
    const sync = new WalSync(wal, { fsync: disk.fsync });
    const { seen, done } = outcomes();
    sync.whenDurable((error) => {
      done('a')(error);
      sync.whenDurable(done('b'));
    });
    disk.complete(0);
    expect(seen).toEqual(['a ok']);
    expect(disk.calls).toBe(2);
    disk.complete(1);
    expect(seen).toEqual(['a ok', 'b ok']);
  });

  it('a failed fsync of the WAL directory fails that round and every later commit, without fsyncing the WAL', () => {
    const disk = heldFsync();
    let directorySyncs = 0;
    const sync = new WalSync(wal, {
      fsync: disk.fsync,
      syncDirectory: () => {
        directorySyncs++;
        throw new Error('EIO: directory');
      },
    });
    const { seen, done } = outcomes();
    sync.whenDurable(done('a'));
    sync.whenDurable(done('b'));
    expect(seen).toEqual(['a EIO: directory', 'b EIO: directory']);
    expect(disk.calls).toBe(0);
    expect(directorySyncs).toBe(1);
    const idle: string[] = [];
    sync.whenIdle(() => idle.push('idle'));
    expect(idle).toEqual(['idle']);
  });
});
