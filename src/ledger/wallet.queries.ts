import type { Sql, Store } from '../store/store.js';
import { ALREADY_DURABLE, refusedDebit } from '../store/debits.js';
import type { DebitOutcome, DebitStatements } from '../store/debits.js';

export interface WalletRow {
  readonly id: number;
  readonly hash: string;
  readonly balance: number;
  readonly created_at: number;
  readonly last_used_at: number;
}

/** A charge's outcome: a debit's (store/debits.ts); refused with the wallet's balance, or 'gone' when the wallet is. */
export type ChargeOutcome = DebitOutcome;

/** A refused charge: `balance` is the wallet's, or undefined when no wallet row was found (deleted meanwhile). */
export const refusedCharge: (balance: number | undefined) => ChargeOutcome = refusedDebit;

/**
 * The debit: one conditional UPDATE, never read-then-write. The same statement moves the
 * low-balance incident from armed to notified and raises `lb_pending` (the outbox flag a worker
 * sends from), so a charge and the notification it causes commit together or not at all.
 */
export const CHARGE = `
UPDATE wallets SET
  balance = balance - $1,
  lb_pending = CASE WHEN lb_armed = 1 AND lb_threshold > 0 AND balance - $1 <= lb_threshold THEN 1 ELSE lb_pending END,
  lb_armed = CASE WHEN lb_armed = 1 AND lb_threshold > 0 AND balance - $1 <= lb_threshold THEN 0 ELSE lb_armed END
WHERE id = $2 AND balance >= $1
RETURNING balance`;

/**
 * Real credits (recharges, operator grants) re-arm the incident once the balance is above the threshold, and
 * reset the cooldown: the next crossing is notified at once. A credit is paid for (or the operator's own act),
 * so the hourly limit on notifications (ledger/low-balance.ts) is only for the free re-arms, threshold edits.
 */
const CREDIT = `
UPDATE wallets SET
  balance = balance + $1,
  lb_armed = CASE WHEN balance + $1 > lb_threshold THEN 1 ELSE lb_armed END,
  lb_last_sent_at = CASE WHEN balance + $1 > lb_threshold THEN 0 ELSE lb_last_sent_at END
WHERE id = $2
RETURNING balance`;

/**
 * A refund (what the final status of a call does not cost) gives the credits back but does not re-arm:
 * a call that ends free (a 5xx) would otherwise cross the threshold and re-arm on every call, each crossing
 * a notification. It only takes back its own charge's effect while nobody acted on it: an incident still
 * waiting for a notifier (lb_pending = 1) whose balance is back above the threshold is withdrawn, and the
 * wallet is armed as before that charge. Once a notifier has taken (2) or sent (0) it, the wallet stays
 * notified until a real credit.
 */
const REFUND = `
UPDATE wallets SET
  balance = balance + $1,
  lb_armed = CASE WHEN lb_pending = 1 AND balance + $1 > lb_threshold THEN 1 ELSE lb_armed END,
  lb_pending = CASE WHEN lb_pending = 1 AND balance + $1 > lb_threshold THEN 0 ELSE lb_pending END
WHERE id = $2
RETURNING balance`;

export const BALANCE = 'SELECT balance FROM wallets WHERE id = $1';

/**
 * The wallets' hot-path debits (Store.debits). The engine may merge several charges of a wallet into one CHARGE of their
 * sum: CHARGE's low-balance flag stays right, since balances only fall within such a merge, so crossing the threshold
 * anywhere in it is the same as ending at or below it.
 */
export const WALLET_DEBITS: DebitStatements = { table: 'wallets', debit: CHARGE, balance: BALANCE };

export async function readBalance(sql: Sql, walletId: number): Promise<number | undefined> {
  const row = await sql.get<{ balance: number }>(BALANCE, [walletId]);
  return row?.balance;
}

/** A charge made inside a unit of work: refused with the balance, or without one when the wallet is gone. */
export type InUnitCharge =
  { readonly ok: true; readonly balance: number } | { readonly ok: false; readonly balance?: number };

/** The debit of `chargeWallet` inside a larger unit of work; on refusal the balance when the wallet exists. */
export async function chargeWalletIn(tx: Sql, walletId: number, cost: number): Promise<InUnitCharge> {
  const [row] = await tx.all<{ balance: number }>(CHARGE, [cost, walletId]);
  if (row !== undefined) return { ok: true, balance: row.balance };
  return { ok: false, balance: await readBalance(tx, walletId) };
}

const SYNC_LATER = { syncLater: true } as const;

/**
 * A wallet's balance, or 'gone' when it has no row: read through the write path so it includes charges not yet
 * committed; it writes nothing, so it waits for no commit (nor fsync).
 */
export async function balanceThroughWrites(store: Store, walletId: number): Promise<number | 'gone'> {
  const { rows } = await store.writeDeferred<{ balance: number }>(BALANCE, [walletId], SYNC_LATER);
  return rows[0]?.balance ?? 'gone';
}

/** A charge of nothing: the balance (balanceThroughWrites) as an accepted charge, or refused when the wallet is gone. */
export async function zeroCharge(store: Store, walletId: number): Promise<ChargeOutcome> {
  const balance = await balanceThroughWrites(store, walletId);
  return balance === 'gone' ? refusedCharge(undefined) : { ok: true, balance, durable: ALREADY_DURABLE };
}

/** Returns the new balance, or undefined when the wallet no longer exists. */
export async function creditWallet(store: Store, walletId: number, amount: number): Promise<number | undefined> {
  const [row] = await store.writeOne<{ balance: number }>(CREDIT, [amount, walletId]);
  return row?.balance;
}

/** Gives back part of a charge in flight (see REFUND); the new balance, or undefined when the wallet no longer exists. */
export async function refundWallet(store: Store, walletId: number, amount: number): Promise<number | undefined> {
  const [row] = await store.writeOne<{ balance: number }>(REFUND, [amount, walletId]);
  return row?.balance;
}

/** The same credit inside a larger unit of work (e.g. with an idempotency record). */
export async function creditWalletIn(tx: Sql, walletId: number, amount: number): Promise<number | undefined> {
  const [row] = await tx.all<{ balance: number }>(CREDIT, [amount, walletId]);
  return row?.balance;
}

export async function insertWallet(sql: Sql, hash: string, balance: number, now: number): Promise<void> {
  await sql.run('INSERT INTO wallets (hash, balance, created_at, last_used_at) VALUES ($1, $2, $3, $3)', [
    hash,
    balance,
    now,
  ]);
}

export function findWalletByHash(sql: Sql, hash: string): Promise<WalletRow | undefined> {
  return sql.get<WalletRow>('SELECT id, hash, balance, created_at, last_used_at FROM wallets WHERE hash = $1', [hash]);
}
