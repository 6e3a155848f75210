import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientKey } from '../../../src/features/mail/smtp-connection-limits.js';
import { Spool, SpoolBudget, SpoolFolder } from '../../../src/features/mail/spool.js';

describe('clientKey: whom an SMTP connection counts against', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::ffff', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:0:0:0:1', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
  ])('%s counts as %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});

describe('SpoolBudget shared by spools', () => {
  const folder = SpoolFolder.create();
  afterAll(async () => (await folder).remove());

  it('stops keeping a message that would go past the budget, gives its share back, and serves the next one', async () => {
    const budget = new SpoolBudget(1000);
    const first = new Spool(await folder, 10_000, 100).shareBudget(budget);
    const second = new Spool(await folder, 10_000, 100).shareBudget(budget);
    await first.write(Buffer.alloc(600));
    await second.write(Buffer.alloc(300));
    expect(budget.heldBytes).toBe(900);
    await second.write(Buffer.alloc(200));
    expect([second.overBudget, budget.heldBytes]).toEqual([true, 600]);
    await second.write(Buffer.alloc(10)); // counted, not kept
    expect([second.received, budget.heldBytes]).toEqual([510, 600]);
    await first.dispose();
    await second.dispose();
    expect(budget.heldBytes).toBe(0);
    const third = new Spool(await folder, 10_000, 100).shareBudget(budget);
    await third.write(Buffer.alloc(1000));
    expect([third.overBudget, third.size]).toEqual([false, 1000]);
    await third.dispose();
  });
});

describe('SpoolFolder.removeLeftovers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-leftovers-unit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('removes folders of this host whose process is gone or has this process’s id, and nothing else', async () => {
    // The naming of this host's folders, learnt from a real one: coinop-spool-<host>-<pid>-<random>.
    const real = await SpoolFolder.create();
    const name =
      readdirSync(tmpdir()).find((entry) => entry.includes(`-${process.pid}-`) && entry.startsWith('coinop-spool-')) ??
      '';
    await real.remove();
    const prefix = name.slice(0, name.indexOf(`-${process.pid}-`) + 1);
    expect(prefix).toMatch(/^coinop-spool-[0-9a-f]{12}-$/);
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const entries = {
      gone: `${prefix}${gone}-a`,
      self: `${prefix}${process.pid}-b`, // a restarted container gets its old pid again
      alive: `${prefix}${process.ppid}-c`,
      otherHost: `coinop-spool-000000000000-${gone}-d`,
      unrelated: 'coinop-mail-e',
      noPid: `${prefix}x-f`,
    };
    for (const entry of Object.values(entries)) mkdirSync(join(dir, entry));
    const removed = await SpoolFolder.removeLeftovers(dir);
    expect(removed.sort()).toEqual([entries.gone, entries.self].sort());
    expect(
      Object.values(entries)
        .filter((entry) => existsSync(join(dir, entry)))
        .map((entry) => basename(entry))
        .sort(),
    ).toEqual([entries.alive, entries.otherHost, entries.unrelated, entries.noPid].sort());
  });
});
