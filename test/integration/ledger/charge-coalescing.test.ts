import { afterEach, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import type { ChargeOutcome } from '../../../src/ledger/ledger.js';

// Many charges of one wallet land in one SQLite group commit and are merged there (one PostgreSQL
// batch likewise); whatever else happens to the wallet in between, the outcome is that of charging one by one.
describeEachStore('charges of one wallet in the same moment', (kind) => {
  let app: TestApp;
  afterEach(async () => app?.close());

  async function wallet(credits: number): Promise<number> {
    const token = await app.createToken(credits);
    const ref = await app.deps.ledger.findWallet(sha256Hex(token));
    return (ref as { id: number }).id;
  }

  const balanceOf = async (id: number) =>
    app.deps.store.read.get<{ balance: number; lb_pending: number; lb_armed: number }>(
      'SELECT balance, lb_pending, lb_armed FROM wallets WHERE id = $1',
      [id],
    );

  async function durable(outcomes: ChargeOutcome[]): Promise<void> {
    await Promise.all(outcomes.map((outcome) => (outcome.ok ? outcome.durable : undefined)));
  }

  it('a credit between charges of the same turn keeps every charge and the credit', async () => {
    app = await startTestApp(kind);
    const id = await wallet(100);
    const before = Array.from({ length: 5 }, () => app.deps.ledger.charge(id, 1));
    const credit = app.deps.ledger.credit(id, 10);
    const after = Array.from({ length: 5 }, () => app.deps.ledger.charge(id, 2));
    const outcomes = await Promise.all([...before, ...after]);
    await durable(outcomes);
    await credit;
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect((await balanceOf(id))?.balance).toBe(100 - 5 + 10 - 10);
    if (kind === 'sqlite') {
      // One writer, so the order is the call order.
      expect(outcomes.map((outcome) => (outcome.ok ? outcome.balance : -1))).toEqual([
        99, 98, 97, 96, 95, 103, 101, 99, 97, 95,
      ]);
      expect(await credit).toBe(105);
    }
  });

  it('refuses the charges the balance cannot cover and keeps the ones it can', async () => {
    app = await startTestApp(kind);
    const id = await wallet(5);
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => app.deps.ledger.charge(id, 2)));
    await durable(outcomes);
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(2);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === 'insufficient')).toHaveLength(6);
    expect((await balanceOf(id))?.balance).toBe(1);
  });

  it('charges of several wallets interleaved in one turn each end exact, refusals included', async () => {
    app = await startTestApp(kind);
    const a = await wallet(10);
    const b = await wallet(4);
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => app.deps.ledger.charge(i % 2 === 0 ? a : b, 1)),
    );
    await durable(outcomes);
    const ofWallet = (parity: number) => outcomes.filter((_, i) => i % 2 === parity);
    expect(ofWallet(0).every((outcome) => outcome.ok)).toBe(true);
    expect(ofWallet(1).filter((outcome) => outcome.ok)).toHaveLength(4);
    expect(ofWallet(1).filter((outcome) => !outcome.ok && outcome.reason === 'insufficient')).toHaveLength(2);
    expect((await balanceOf(a))?.balance).toBe(4);
    expect((await balanceOf(b))?.balance).toBe(0);
  });

  it('crossing the low-balance threshold within merged charges raises the notification flag once', async () => {
    app = await startTestApp(kind);
    const id = await wallet(100);
    await app.deps.ledger.updateLowBalanceSettings(id, { threshold: 95 });
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => app.deps.ledger.charge(id, 1)));
    await durable(outcomes);
    expect(await balanceOf(id)).toEqual({ balance: 90, lb_pending: 1, lb_armed: 0 });
  });

  it('a balance read in the same turn sees every charge before it', async () => {
    app = await startTestApp(kind);
    const id = await wallet(50);
    const charges = Array.from({ length: 4 }, () => app.deps.ledger.charge(id, 3));
    const read = app.deps.store.writeDeferred<{ balance: number }>('SELECT balance FROM wallets WHERE id = $1', [id]);
    await durable(await Promise.all(charges));
    const { rows } = await read;
    if (kind === 'sqlite') expect(rows).toEqual([{ balance: 38 }]);
    expect((await balanceOf(id))?.balance).toBe(38);
  });
});
