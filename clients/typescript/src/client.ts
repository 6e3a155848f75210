import { createHash } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { paths } from './generated/schema.js';
import { ConnectionFailed, errorForStatus } from './errors.js';
import type { Charge } from './errors.js';
import type * as T from './types.js';

export interface CoinopOptions {
  /** The service's base address, e.g. `http://localhost:8080`. */
  readonly baseUrl: string;
  /** The wallet's token (`x-token`); needed by every call but `tokenNew`. */
  readonly token?: string | undefined;
  /** The operator token (`x-admin-token`) for the `admin*` calls. */
  readonly adminToken?: string | undefined;
  /** A fetch to use instead of the global one (tests, proxies). */
  readonly fetch?: typeof globalThis.fetch;
}

/** An answer's data with what the call cost and the balance after it. */
export interface Result<Data> extends Charge {
  readonly data: Data;
}

interface Answer {
  readonly data?: unknown;
  readonly error?: unknown;
  readonly response: Response;
}

function headerNumber(response: Response, name: string): number | undefined {
  const value = response.headers.get(name);
  if (value === null || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

function chargeOf(response: Response): Charge {
  return { cost: headerNumber(response, 'x-cost') ?? 0, balance: headerNumber(response, 'x-balance') };
}

/** Waits for a call; a refusal becomes the typed error of its status, a failed connection `ConnectionFailed`. */
async function settle<Data>(call: Promise<Answer>): Promise<Result<Data>> {
  let answer: Answer;
  try {
    answer = await call;
  } catch (cause) {
    const message = cause instanceof Error ? (cause.cause instanceof Error ? `${cause.message}: ${cause.cause.message}` : cause.message) : String(cause);
    throw new ConnectionFailed({ status: 0, body: message, cost: 0, balance: undefined }, { cause });
  }
  const { response } = answer;
  if (!response.ok) {
    const body = typeof answer.error === 'string' ? answer.error : answer.error === undefined ? '' : JSON.stringify(answer.error);
    throw errorForStatus({ status: response.status, body, ...chargeOf(response), retryAfter: headerNumber(response, 'retry-after') });
  }
  return { data: answer.data as Data, ...chargeOf(response) };
}

/** The SHA-256 hex of a token: how the operator API names a wallet. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const asText = (body: unknown): string => String(body);

/**
 * A typed client of the coinop API. Every method resolves to a `Result` carrying `cost` and `balance`, and
 * rejects with a `CoinopError` subclass (`Unauthorized`, `InsufficientCredits`, `NotFound`, …).
 */
export class Coinop {
  private readonly api: ReturnType<typeof createClient<paths>>;
  private readonly token: string | undefined;
  private readonly adminToken: string | undefined;

  constructor(options: CoinopOptions) {
    this.api = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), ...(options.fetch === undefined ? {} : { fetch: options.fetch }) });
    this.token = options.token;
    this.adminToken = options.adminToken;
  }

  private get auth(): { 'x-token': string } {
    return { 'x-token': this.token ?? '' };
  }

  private get adminAuth(): { 'x-admin-token': string } {
    return { 'x-admin-token': this.adminToken ?? '' };
  }

  /** A new token with the starting credits (POST /token; one per 10 seconds per client). */
  tokenNew(): Promise<Result<string>> {
    return settle(
      this.api.POST('/token', {
        body: { token: 'new' },
        bodySerializer: (body) => new URLSearchParams(body).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        parseAs: 'text',
      }),
    );
  }

  /** The wallet's balance, creation time and token hash (GET /token). */
  tokenInfo(): Promise<Result<T.WalletInfo>> {
    return settle(this.api.GET('/token', { headers: this.auth }));
  }

  /** Recent calls, newest first (GET /token/logs, free). */
  logs(query: T.LogsQuery = {}): Promise<Result<T.Logs>> {
    return settle(this.api.GET('/token/logs', { headers: this.auth, params: { query: { n: 5, ...query } } }));
  }

  /** Credits spent per UTC hour or day and log category, the last 7 days at most (GET /token/spend, free). */
  spend(query: T.SpendQuery = {}): Promise<Result<T.Spend>> {
    return settle(this.api.GET('/token/spend', { headers: this.auth, params: { query: { days: 7, by: 'day', ...query } } }));
  }

  /** A Stripe payment link for `amount` million credits, as text (GET /recharge, free); `ServerError` 501 when recharge is not configured. */
  rechargeLink(amount: T.RechargeAmount): Promise<Result<string>> {
    return settle(this.api.GET('/recharge', { headers: this.auth, params: { query: { amount } }, parseAs: 'text' }));
  }

  settingsGet(): Promise<Result<T.Settings>> {
    return settle(this.api.GET('/token/settings', { headers: this.auth }));
  }

  settingsUpdate(settings: T.SettingsUpdate): Promise<Result<string>> {
    return settle(this.api.PUT('/token/settings', { headers: this.auth, body: settings, parseAs: 'text' }));
  }

  /** Stores `value` under bucket/key; `ttl` in seconds (0 or absent: 30 days). */
  kvSet(bucket: string, key: string, value: string, options: { ttl?: number } = {}): Promise<Result<string>> {
    return settle(
      this.api.POST('/kv/{bucket}/{key}', {
        headers: { ...this.auth, 'content-type': 'text/plain' },
        params: { path: { bucket, key }, ...(options.ttl === undefined ? {} : { query: { ttl: String(options.ttl) } }) },
        // The document may declare no body schema for this text/plain body; the value is sent as it is.
        body: value as never,
        bodySerializer: asText,
        parseAs: 'text',
      }),
    );
  }

  kvGet(bucket: string, key: string): Promise<Result<string>> {
    return settle(this.api.GET('/kv/{bucket}/{key}', { headers: this.auth, params: { path: { bucket, key } }, parseAs: 'text' }));
  }

  kvDelete(bucket: string, key: string): Promise<Result<string>> {
    return settle(this.api.DELETE('/kv/{bucket}/{key}', { headers: this.auth, params: { path: { bucket, key } }, parseAs: 'text' }));
  }

  /** One page of a bucket's live keys in byte order, with value sizes (limit: 1 to 100, default 20); pass `cursor` back for the following page. */
  kvList(bucket: string, query: T.KvListQuery = {}): Promise<Result<T.KeyList>> {
    return settle(this.api.GET('/kv/{bucket}', { headers: this.auth, params: { path: { bucket }, query: { limit: 20, ...query } } }));
  }

  /** One page of the wallet's buckets in byte order, with live keys and value bytes (limit: 1 to 100, default 20); pass `cursor` back for the following page. */
  kvBuckets(query: T.KvBucketsQuery = {}): Promise<Result<T.BucketList>> {
    return settle(this.api.GET('/kv', { headers: this.auth, params: { query: { limit: 20, ...query } } }));
  }

  webhookList(): Promise<Result<T.WebhookList>> {
    return settle(this.api.GET('/webhook', { headers: this.auth }));
  }

  webhookGet(webhookId: string): Promise<Result<T.Webhook>> {
    return settle(this.api.GET('/webhook/{webhookId}', { headers: this.auth, params: { path: { webhookId } } }));
  }

  webhookCreate(webhook: T.WebhookCreate): Promise<Result<T.Webhook>> {
    return settle(this.api.POST('/webhook', { headers: this.auth, body: webhook }));
  }

  /** Replaces the whole configuration (PUT). */
  webhookReplace(webhookId: string, webhook: T.WebhookReplace): Promise<Result<T.Webhook>> {
    return settle(this.api.PUT('/webhook/{webhookId}', { headers: this.auth, params: { path: { webhookId } }, body: webhook }));
  }

  /** Changes only the given fields (PATCH). */
  webhookUpdate(webhookId: string, changes: T.WebhookPatch): Promise<Result<T.Webhook>> {
    return settle(this.api.PATCH('/webhook/{webhookId}', { headers: this.auth, params: { path: { webhookId } }, body: changes }));
  }

  webhookDelete(webhookId: string): Promise<Result<string>> {
    return settle(this.api.DELETE('/webhook/{webhookId}', { headers: this.auth, params: { path: { webhookId } }, parseAs: 'text' }));
  }

  /** Sends a dummy payload to the callback; a failed delivery is `success: false`, not an error. */
  webhookTest(webhookId: string): Promise<Result<T.WebhookTestResult>> {
    return settle(this.api.POST('/webhook/{webhookId}/test', { headers: this.auth, params: { path: { webhookId } } }));
  }

  webhookDeliveries(webhookId: string, query: T.DeliveriesQuery = {}): Promise<Result<T.Deliveries>> {
    return settle(this.api.GET('/webhook/{webhookId}/deliveries', { headers: this.auth, params: { path: { webhookId }, query: { n: 20, ...query } } }));
  }

  webhookDelivery(webhookId: string, deliveryId: string): Promise<Result<T.Delivery>> {
    return settle(this.api.GET('/webhook/{webhookId}/deliveries/{deliveryId}', { headers: this.auth, params: { path: { webhookId, deliveryId } } }));
  }

  dnsLookup(request: T.DnsLookupRequest): Promise<Result<T.DnsLookupResult>> {
    return settle(this.api.POST('/dns-lookup', { headers: this.auth, body: request }));
  }

  urlMetadata(request: T.UrlMetadataRequest): Promise<Result<T.UrlMetadataResult>> {
    return settle(this.api.POST('/url-to-metadata', { headers: this.auth, body: request }));
  }

  myIp(): Promise<Result<T.CallerIp>> {
    return settle(this.api.GET('/myip', { headers: this.auth }));
  }

  /** A wallet as the operator sees it; `wallet` is a token or its SHA-256 hex hash. */
  adminWallet(wallet: string): Promise<Result<T.AdminWallet>> {
    return settle(this.api.GET('/manage/wallets/{hash}', { headers: this.adminAuth, params: { path: { hash: walletHash(wallet) } } }));
  }

  /** One page of every wallet, newest used, highest balance or newest created first (GET /manage/wallets; limit 1 to 100, default 20); pass `cursor` back for the following page. */
  adminWallets(query: T.AdminWalletsQuery = {}): Promise<Result<T.AdminWallets>> {
    return settle(this.api.GET('/manage/wallets', { headers: this.adminAuth, params: { query: { limit: 20, sort: 'lastUsed', ...query } } }));
  }

  /** One page of a wallet's log (a token or its hash), newest first (GET /manage/wallets/{hash}/logs; limit 1 to 100, default 20); pass `cursor` back for the following page. */
  adminWalletLogs(wallet: string, query: T.AdminWalletLogsQuery = {}): Promise<Result<T.AdminWalletLogs>> {
    return settle(
      this.api.GET('/manage/wallets/{hash}/logs', {
        headers: this.adminAuth,
        params: { path: { hash: walletHash(wallet) }, query: { limit: 20, ...query } },
      }),
    );
  }

  /** Wallets, credits in circulation and credits spent on each of the last `days` UTC days (GET /manage/stats; days 1 to 90, default 7). */
  adminStats(query: T.AdminStatsQuery = {}): Promise<Result<T.AdminStats>> {
    return settle(this.api.GET('/manage/stats', { headers: this.adminAuth, params: { query: { days: 7, ...query } } }));
  }

  /** Adds `amount` credits to a wallet (a token or its hash). */
  adminCredit(wallet: string, amount: number, reason?: string): Promise<Result<T.AdminCredit>> {
    return settle(this.api.POST('/manage/wallets/{hash}/credit', this.amountRequest(wallet, amount, reason)));
  }

  /** Takes `amount` credits from a wallet (a token or its hash), all or nothing (POST /manage/wallets/{hash}/debit); `Conflict` when the balance does not cover it. */
  adminDebit(wallet: string, amount: number, reason?: string): Promise<Result<T.AdminDebit>> {
    return settle(this.api.POST('/manage/wallets/{hash}/debit', this.amountRequest(wallet, amount, reason)));
  }

  /** A credit's or debit's request: `amount` credits moved on `wallet` (a token or its hash), with the operator's reason if any. */
  private amountRequest(wallet: string, amount: number, reason: string | undefined) {
    return { headers: this.adminAuth, params: { path: { hash: walletHash(wallet) } }, body: { amount, ...(reason === undefined ? {} : { reason }) } };
  }

  /** Deletes a wallet (a token or its hash) and all its data; its token answers 401 from then on (DELETE /manage/wallets/{hash}). */
  adminDelete(wallet: string): Promise<Result<string>> {
    return settle(this.api.DELETE('/manage/wallets/{hash}', { headers: this.adminAuth, params: { path: { hash: walletHash(wallet) } }, parseAs: 'text' }));
  }
}

/** A 64-hex-digit string is taken as a hash already; anything else as a token. */
function walletHash(wallet: string): string {
  return /^[0-9a-f]{64}$/.test(wallet) ? wallet : tokenHash(wallet);
}
