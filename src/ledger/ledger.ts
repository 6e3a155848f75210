import type { Logger } from 'pino';
import type { ColumnForm, Sql, Store } from '../store/store.js';
import type { Paid, PaidRow, PaidWrite, PaidWriteRow } from '../store/debits.js';
import type { Clock } from '../lib/time.js';
import { INSUFFICIENT_CREDITS } from '../errors.js';
import { WalletDirectory } from './wallet-directory.js';
import type { WalletRef } from './wallet-directory.js';
import { WalletCharger } from './wallet-charger.js';
import type { ReadCharges } from './wallet-charger.js';
import { LogBuffer } from './log-buffer.js';
import { FREE_RULE, FreeRowLimit } from './free-row-limit.js';
import { RateBuckets } from '../lib/rate-buckets.js';
import type { LogEntry } from './log-entry.js';
import type { LedgerMetrics } from '../observability/metrics.js';
import {
  chargeWalletIn,
  creditWallet,
  creditWalletIn,
  findWalletByHash,
  balanceThroughWrites,
  refundWallet,
} from './wallet.queries.js';
import type { ChargeOutcome, InUnitCharge, WalletRow } from './wallet.queries.js';
import { deleteWalletIn } from './wallet-deletion.js';
import { claimNotification, pendingWallets, releaseNotification, updateLowBalanceSettings } from './low-balance.js';
import type { ClaimedNotification, ClaimTiming, LowBalanceSettingsChange } from './low-balance.js';

export type { ChargeOutcome, InUnitCharge, WalletRow } from './wallet.queries.js';
export { insertWallet } from './wallet.queries.js';
export { WALLET_DATA_TABLES } from './wallet-deletion.js';
export type { WalletRef } from './wallet-directory.js';
export type { ReadCharges } from './wallet-charger.js';
export type { LogCategory, LogEntry } from './log-entry.js';
export type { ClaimedNotification, ClaimTiming } from './low-balance.js';

/**
 * The one place where wallets are charged, refunded, credited and logged: HTTP metering, the scheduler,
 * inbound mail, webhook deliveries, low-balance notifications, the operator API and billing all go
 * through it, and nothing else writes the wallets table or the call log. The hot path (`charge`,
 * `cachedWallet`, `record`) keeps its synchronous shape: no promise or allocation of its own.
 */
/** What a Ledger runs on besides its store; `readCharges` defaults to 'deferred'. */
export interface LedgerOptions {
  readonly clock: Clock;
  readonly logger: Pick<Logger, 'error'>;
  readonly metrics?: LedgerMetrics | undefined;
  readonly readCharges?: ReadCharges | undefined;
}

export class Ledger {
  private readonly metrics: LedgerMetrics | undefined;
  private readonly wallets: WalletDirectory;
  private readonly charger: WalletCharger;
  private readonly logs: LogBuffer;
  /** One budget for every row that cost nothing, whoever records it (metering, mail, the scheduler, deliveries). */
  private readonly freeRows: FreeRowLimit;
  /** Each wallet's budget of free calls (free routes, POST /mcp), by the same rule as its free rows. */
  private readonly freeCalls: RateBuckets<number>;

  constructor(
    private readonly store: Store,
    { clock, logger, metrics, readCharges = 'deferred' }: LedgerOptions,
  ) {
    this.metrics = metrics;
    this.wallets = new WalletDirectory(store, clock, (error) =>
      logger.error({ err: error }, 'recording last use failed'),
    );
    this.charger = new WalletCharger(store, readCharges);
    // Under READ_CHARGES=deferred the log's batches do not wait for the disk either (log-insert.ts).
    this.logs = new LogBuffer(
      store,
      clock,
      (error, dropped) => logger.error({ err: error, dropped }, 'writing call logs failed'),
      readCharges === 'deferred',
    );
    this.freeRows = new FreeRowLimit(clock);
    this.freeCalls = new RateBuckets(clock, FREE_RULE);
    metrics?.watchLogBuffer(() => this.logs.waiting);
  }

  /** The wallet of a token hash when it is cached (the synchronous fast path), else undefined: then call `findWallet`. */
  cachedWallet(hash: string): WalletRef | undefined {
    return this.wallets.cached(hash);
  }

  /** The wallet of a token hash, cached from here on; undefined when there is none. */
  findWallet(hash: string): Promise<WalletRef | undefined> {
    return this.wallets.resolve(hash);
  }

  /** Drops a wallet found gone (deleted elsewhere) from the cache. */
  forgetWallet(hash: string): void {
    this.wallets.forget(hash);
  }

  /** The wallet row as stored (operator API, billing); undefined when there is none. */
  walletByHash(hash: string): Promise<WalletRow | undefined> {
    return findWalletByHash(this.store.read, hash);
  }

  /**
   * The hot-path charge: returned as it is when the outcome is known at once (SQLite's common case),
   * else a promise. The caller awaits `durable` before acting on an accepted charge. `readOnly`: the call writes
   * nothing of the user's; under READ_CHARGES=deferred its `durable` settles once the charge is committed.
   */
  charge(walletId: number, cost: number, readOnly = false): ChargeOutcome | Promise<ChargeOutcome> {
    return this.charger.charge(walletId, cost, readOnly);
  }

  /**
   * Whether the store commits a charge in the statement it pays for (PostgreSQL: one round trip, one commit); where it
   * does, routes declared `paidByStatement` are charged by their statement (paidWrites, paidReads), not before their handler.
   */
  get paysInStatements(): boolean {
    return this.charger.paysInStatements;
  }

  /**
   * The writer of `write`'s rows, each charging `amount` to its wallet (`owner`) in the same commit: a row is written only
   * when its charge is accepted, and its outcome is the charge's, with what the write returned for it (a delete's row).
   * Undefined where paysInStatements is false.
   */
  paidWrites<T>(write: PaidWrite): ((row: PaidWriteRow) => Promise<Paid<T>>) | undefined {
    return this.charger.paidWrites<T>(write);
  }

  /**
   * The reader of `read`'s rows (a ColumnForm selecting `i`, each row's position, with what it reads), each charging
   * `amount` to its wallet in the read's statement as a read-only call's charge (READ_CHARGES): a row is read only when
   * its charge is accepted. Undefined where paysInStatements is false.
   */
  paidReads<T>(read: ColumnForm): ((row: PaidRow) => Promise<Paid<T>>) | undefined {
    return this.charger.paidReads<T>(read);
  }

  /**
   * The wallet's balance, or 'gone' when it no longer exists: what a charge of nothing reads (it includes charges
   * not yet committed). Writes and logs nothing.
   */
  balanceOf(walletId: number): Promise<number | 'gone'> {
    return balanceThroughWrites(this.store, walletId);
  }

  /** A charge inside the caller's unit of work (inbound mail: every recipient's charge and outbox entry commit together). */
  chargeIn(tx: Sql, walletId: number, cost: number): Promise<InUnitCharge> {
    return chargeWalletIn(tx, walletId, cost);
  }

  /**
   * Takes credits from a wallet (operator API): one conditional UPDATE, as a charge, so concurrent debits never
   * overdraw; refused with the balance when it does not cover `amount`, without one when the wallet is gone.
   */
  debit(walletId: number, amount: number): Promise<InUnitCharge> {
    return this.store.write((tx) => chargeWalletIn(tx, walletId, amount));
  }

  /**
   * Deletes a wallet with all its data (operator API, idle-wallet sweep) and drops it from the cache, so its token
   * answers 401 at once on this instance (others notice when their next charge finds no row). Log rows already
   * recorded are written first, so none lands after the wallet is gone. `unusedBefore`: see deleteWalletIn.
   */
  async deleteWallet(wallet: { readonly id: number; readonly hash: string }, unusedBefore?: number): Promise<boolean> {
    await this.logs.flush();
    const deleted = await this.store.write((tx) => deleteWalletIn(tx, wallet.id, unusedBefore));
    this.wallets.forget(wallet.hash);
    return deleted;
  }

  /** Gives back what a call's final status does not cost; never re-arms the low-balance incident. The new balance, or undefined when the wallet is gone. */
  refund(walletId: number, amount: number): Promise<number | undefined> {
    return refundWallet(this.store, walletId, amount);
  }

  /** A real credit (operator grant): re-arms the low-balance incident and resets its cooldown. The new balance, or undefined when the wallet is gone. */
  credit(walletId: number, amount: number): Promise<number | undefined> {
    return creditWallet(this.store, walletId, amount);
  }

  /** The same credit inside the caller's unit of work (billing: with the payment's idempotency record). */
  creditIn(tx: Sql, walletId: number, amount: number): Promise<number | undefined> {
    return creditWalletIn(tx, walletId, amount);
  }

  /**
   * Draws one free call from the wallet's budget (free-row-limit.ts): 0 when drawn, else the ms until one can be.
   * Metering draws it for every call that costs nothing (src/http/metering.ts); paid calls never do.
   */
  takeFreeCall(walletId: number): number {
    return this.freeCalls.take(walletId);
  }

  /**
   * Adds a row to the wallet's call log (written in batches, off the hot path). Paid rows are always kept;
   * a row that cost nothing only within the wallet's free-row budget (free-row-limit.ts): what pays nothing must not buy storage.
   */
  record(entry: LogEntry): void {
    this.metrics?.recorded(entry.endpoint, entry.cost, entry.statusCode);
    if (entry.cost === 0 && !this.freeRows.allow(entry.walletId)) return;
    this.logs.push(entry);
  }

  /**
   * Adds a row outside the free-row budget: an operator's call or a payment. Their number is set by the
   * operator or the payments, not by the wallet's holder, and each must show in the wallet's log.
   */
  recordAlways(entry: LogEntry): void {
    this.metrics?.recorded(entry.endpoint, entry.cost, entry.statusCode);
    this.logs.push(entry);
  }

  /** A delivery refused for want of credits (mail or a scheduled run) is logged like a 402 call, so the owner sees why; nothing was sent or charged. */
  recordRefusal(walletId: number, webhookId: string, balance: number): void {
    this.record({
      walletId,
      method: 'POST',
      path: webhookId,
      endpoint: 'webhook-delivery',
      statusCode: 402,
      responseTimeMs: 0,
      error: INSUFFICIENT_CREDITS,
      cost: 0,
      balance,
    });
  }

  /** Writes every log row recorded so far; resolves once committed (or reported as failed). */
  flush(): Promise<void> {
    return this.logs.flush();
  }

  /** Threshold, webhook and e-mail of the low-balance notification; a new threshold re-arms the incident. */
  updateLowBalanceSettings(walletId: number, change: LowBalanceSettingsChange): Promise<void> {
    return updateLowBalanceSettings(this.store, walletId, change);
  }

  /** Wallets with a low-balance notification due or a claim gone stale. */
  pendingNotifications(now: number, minIntervalMs: number, limit: number): Promise<number[]> {
    return pendingWallets(this.store.read, now, minIntervalMs, limit);
  }

  /** Makes the caller the one sender of a wallet's notification (and enforces the rate limit); undefined when another has it. */
  claimNotification(walletId: number, timing: ClaimTiming): Promise<ClaimedNotification | undefined> {
    return claimNotification(this.store, walletId, timing);
  }

  /** Ends the incident of a claim, whatever the send did (no retry). */
  releaseNotification(claim: ClaimedNotification): Promise<void> {
    return releaseNotification(this.store, claim);
  }
}
