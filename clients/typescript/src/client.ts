import { createHash } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { paths } from './generated/schema.js';
import { ConnectionFailed, errorForStatus, InvalidInput } from './errors.js';
import type { Charge } from './errors.js';
import * as rules from './input-rules.js';
import type { Problem } from './input-rules.js';
import { resolveSettings } from './settings.js';
import type * as T from './types.js';

/** Each option absent (or empty) is read as the CLI reads it: COINOP_URL, COINOP_TOKEN, ADMIN_TOKEN, then the CLI's config file. */
export interface CoinopOptions {
  /** The service's base address, e.g. `http://localhost:8080` (the default). */
  readonly baseUrl?: string | undefined;
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

/** How a call goes: the service's operation (for its price), and what the client's check of the input found. */
interface CallPlan {
  readonly operationId: string;
  /** Called inside the call's promise, so even input no rule foresaw rejects rather than throws. */
  readonly problem?: () => Problem;
  /** A price that depends on the request (url-to-metadata's AI summary). */
  readonly request?: { readonly aiSummary?: string | undefined };
}

/**
 * Sends a call whose input passed the service's rules (else `InvalidInput`, nothing sent); a refusal becomes the typed
 * error of its status (a 402 saying what the call costs), a failed connection `ConnectionFailed` naming the address.
 */
async function settle<Data>(baseUrl: string, plan: CallPlan, call: () => Promise<Answer>): Promise<Result<Data>> {
  const problem = plan.problem?.() ?? null;
  if (problem !== null) throw new InvalidInput(problem);
  let answer: Answer;
  try {
    answer = await call();
  } catch (cause) {
    throw new ConnectionFailed(
      { status: 0, body: `cannot reach ${baseUrl}: ${reason(cause)}`, cost: 0, balance: undefined },
      { cause },
    );
  }
  const { response } = answer;
  if (!response.ok) {
    const body =
      typeof answer.error === 'string' ? answer.error : answer.error === undefined ? '' : JSON.stringify(answer.error);
    const needed = response.status === 402 ? rules.callCost(plan.operationId, plan.request) : undefined;
    throw errorForStatus({
      status: response.status,
      body,
      ...chargeOf(response),
      retryAfter: headerNumber(response, 'retry-after'),
      needed,
    });
  }
  return { data: answer.data as Data, ...chargeOf(response) };
}

/** fetch's `fetch failed` says nothing: the cause (`connect ECONNREFUSED 127.0.0.1:8080`) does. */
function reason(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  return cause.cause instanceof Error ? cause.cause.message : cause.message;
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
  /** The service's base address, as given or read from the settings. */
  readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly adminToken: string | undefined;

  constructor(options: CoinopOptions = {}) {
    const settings = resolveSettings({ url: options.baseUrl, token: options.token, adminToken: options.adminToken });
    this.baseUrl = settings.url.replace(/\/+$/, '');
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    this.token = settings.token;
    this.adminToken = settings.adminToken;
  }

  private send<Data>(plan: CallPlan | string, call: () => Promise<Answer>): Promise<Result<Data>> {
    return settle(this.baseUrl, typeof plan === 'string' ? { operationId: plan } : plan, call);
  }

  private get auth(): { 'x-token': string } {
    return { 'x-token': this.token ?? '' };
  }

  private get adminAuth(): { 'x-admin-token': string } {
    return { 'x-admin-token': this.adminToken ?? '' };
  }

  /** A new token with the starting credits (POST /token; one per 10 seconds per client). */
  tokenNew(): Promise<Result<string>> {
    return this.send('tokenCreate', () =>
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
    return this.send('tokenGet', () => this.api.GET('/token', { headers: this.auth }));
  }

  /** Recent calls, newest first (GET /token/logs, free). */
  logs(query: T.LogsQuery = {}): Promise<Result<T.Logs>> {
    return this.send('logsList', () =>
      this.api.GET('/token/logs', { headers: this.auth, params: { query: { n: 5, ...query } } }),
    );
  }

  /** Credits spent per UTC hour or day and log category, the last 7 days at most (GET /token/spend, free). */
  spend(query: T.SpendQuery = {}): Promise<Result<T.Spend>> {
    return this.send('spendSummary', () =>
      this.api.GET('/token/spend', { headers: this.auth, params: { query: { days: 7, by: 'day', ...query } } }),
    );
  }

  /** A Stripe payment link for `amount` million credits, as text (GET /recharge, free); `ServerError` 501 when recharge is not configured. */
  rechargeLink(amount: T.RechargeAmount): Promise<Result<string>> {
    return this.send('rechargeLink', () =>
      this.api.GET('/recharge', { headers: this.auth, params: { query: { amount } }, parseAs: 'text' }),
    );
  }

  settingsGet(): Promise<Result<T.Settings>> {
    return this.send('settingsGet', () => this.api.GET('/token/settings', { headers: this.auth }));
  }

  settingsUpdate(settings: T.SettingsUpdate): Promise<Result<string>> {
    return this.send({ operationId: 'settingsUpdate', problem: () => rules.settingsProblem(settings) }, () =>
      this.api.PUT('/token/settings', { headers: this.auth, body: settings, parseAs: 'text' }),
    );
  }

  /** Stores `value` under bucket/key; `ttl` in seconds (0 or absent: 30 days). */
  kvSet(bucket: string, key: string, value: string, options: { ttl?: number } = {}): Promise<Result<string>> {
    return this.send({ operationId: 'kvSet', problem: () => rules.kvSetProblem(bucket, key, value, options.ttl) }, () =>
      this.api.POST('/kv/{bucket}/{key}', {
        headers: { ...this.auth, 'content-type': 'text/plain' },
        params: {
          path: { bucket, key },
          ...(options.ttl === undefined ? {} : { query: { ttl: String(options.ttl) } }),
        },
        body: value,
        bodySerializer: asText,
        parseAs: 'text',
      }),
    );
  }

  kvGet(bucket: string, key: string): Promise<Result<string>> {
    return this.send({ operationId: 'kvGet', problem: () => rules.kvPathProblem(bucket, key) }, () =>
      this.api.GET('/kv/{bucket}/{key}', { headers: this.auth, params: { path: { bucket, key } }, parseAs: 'text' }),
    );
  }

  kvDelete(bucket: string, key: string): Promise<Result<string>> {
    return this.send({ operationId: 'kvDelete', problem: () => rules.kvPathProblem(bucket, key) }, () =>
      this.api.DELETE('/kv/{bucket}/{key}', { headers: this.auth, params: { path: { bucket, key } }, parseAs: 'text' }),
    );
  }

  /** One page of a bucket's live keys in byte order, with value sizes (limit: 1 to 100, default 20); pass `cursor` back for the following page. */
  kvList(bucket: string, query: T.KvListQuery = {}): Promise<Result<T.KeyList>> {
    return this.send(
      { operationId: 'kvList', problem: () => rules.first(rules.bucketProblem(bucket), rules.pagingProblem(query)) },
      () =>
        this.api.GET('/kv/{bucket}', {
          headers: this.auth,
          params: { path: { bucket }, query: { limit: 20, ...query } },
        }),
    );
  }

  /** One page of the wallet's buckets in byte order, with live keys and value bytes (limit: 1 to 100, default 20); pass `cursor` back for the following page. */
  kvBuckets(query: T.KvBucketsQuery = {}): Promise<Result<T.BucketList>> {
    return this.send({ operationId: 'kvBuckets', problem: () => rules.pagingProblem(query) }, () =>
      this.api.GET('/kv', { headers: this.auth, params: { query: { limit: 20, ...query } } }),
    );
  }

  webhookList(): Promise<Result<T.WebhookList>> {
    return this.send('webhookList', () => this.api.GET('/webhook', { headers: this.auth }));
  }

  webhookGet(webhookId: string): Promise<Result<T.Webhook>> {
    return this.send({ operationId: 'webhookGet', problem: () => rules.webhookIdProblem(webhookId) }, () =>
      this.api.GET('/webhook/{webhookId}', { headers: this.auth, params: { path: { webhookId } } }),
    );
  }

  webhookCreate(webhook: T.WebhookCreate): Promise<Result<T.Webhook>> {
    return this.send(
      { operationId: 'webhookCreate', problem: () => rules.webhookInputProblem(webhook, new Date()) },
      () => this.api.POST('/webhook', { headers: this.auth, body: webhook }),
    );
  }

  /** Replaces the whole configuration (PUT). */
  webhookReplace(webhookId: string, webhook: T.WebhookReplace): Promise<Result<T.Webhook>> {
    return this.send(
      {
        operationId: 'webhookReplace',
        problem: () =>
          rules.first(rules.webhookIdProblem(webhookId), rules.webhookInputProblem(webhook, new Date(), webhookId)),
      },
      () =>
        this.api.PUT('/webhook/{webhookId}', { headers: this.auth, params: { path: { webhookId } }, body: webhook }),
    );
  }

  /** Changes only the given fields (PATCH). */
  webhookUpdate(webhookId: string, changes: T.WebhookPatch): Promise<Result<T.Webhook>> {
    return this.send(
      {
        operationId: 'webhookUpdate',
        problem: () => rules.first(rules.webhookIdProblem(webhookId), rules.webhookPatchProblem(changes, new Date())),
      },
      () =>
        this.api.PATCH('/webhook/{webhookId}', { headers: this.auth, params: { path: { webhookId } }, body: changes }),
    );
  }

  webhookDelete(webhookId: string): Promise<Result<string>> {
    return this.send({ operationId: 'webhookDelete', problem: () => rules.webhookIdProblem(webhookId) }, () =>
      this.api.DELETE('/webhook/{webhookId}', { headers: this.auth, params: { path: { webhookId } }, parseAs: 'text' }),
    );
  }

  /** Sends a dummy payload to the callback; a failed delivery is `success: false`, not an error. */
  webhookTest(webhookId: string): Promise<Result<T.WebhookTestResult>> {
    return this.send({ operationId: 'webhookTest', problem: () => rules.webhookIdProblem(webhookId) }, () =>
      this.api.POST('/webhook/{webhookId}/test', { headers: this.auth, params: { path: { webhookId } } }),
    );
  }

  webhookDeliveries(webhookId: string, query: T.DeliveriesQuery = {}): Promise<Result<T.Deliveries>> {
    return this.send({ operationId: 'webhookDeliveries', problem: () => rules.webhookIdProblem(webhookId) }, () =>
      this.api.GET('/webhook/{webhookId}/deliveries', {
        headers: this.auth,
        params: { path: { webhookId }, query: { n: 20, ...query } },
      }),
    );
  }

  webhookDelivery(webhookId: string, deliveryId: string): Promise<Result<T.Delivery>> {
    return this.send({ operationId: 'webhookDelivery', problem: () => rules.webhookIdProblem(webhookId) }, () =>
      this.api.GET('/webhook/{webhookId}/deliveries/{deliveryId}', {
        headers: this.auth,
        params: { path: { webhookId, deliveryId } },
      }),
    );
  }

  dnsLookup(request: T.DnsLookupRequest): Promise<Result<T.DnsLookupResult>> {
    return this.send({ operationId: 'dnsLookup', problem: () => rules.dnsProblem(request) }, () =>
      this.api.POST('/dns-lookup', { headers: this.auth, body: request }),
    );
  }

  urlMetadata(request: T.UrlMetadataRequest): Promise<Result<T.UrlMetadataResult>> {
    return this.send({ operationId: 'urlMetadata', problem: () => rules.metadataProblem(request), request }, () =>
      this.api.POST('/url-to-metadata', { headers: this.auth, body: request }),
    );
  }

  myIp(): Promise<Result<T.CallerIp>> {
    return this.send('myIp', () => this.api.GET('/myip', { headers: this.auth }));
  }

  /** A wallet as the operator sees it; `wallet` is a token or its SHA-256 hex hash. */
  adminWallet(wallet: string): Promise<Result<T.AdminWallet>> {
    return this.send('walletGet', () =>
      this.api.GET('/manage/wallets/{hash}', {
        headers: this.adminAuth,
        params: { path: { hash: walletHash(wallet) } },
      }),
    );
  }

  /** One page of every wallet, newest used, highest balance or newest created first (GET /manage/wallets; limit 1 to 100, default 20); pass `cursor` back for the following page. */
  adminWallets(query: T.AdminWalletsQuery = {}): Promise<Result<T.AdminWallets>> {
    return this.send('walletList', () =>
      this.api.GET('/manage/wallets', {
        headers: this.adminAuth,
        params: { query: { limit: 20, sort: 'lastUsed', ...query } },
      }),
    );
  }

  /** One page of a wallet's log (a token or its hash), newest first (GET /manage/wallets/{hash}/logs; limit 1 to 100, default 20); pass `cursor` back for the following page. */
  adminWalletLogs(wallet: string, query: T.AdminWalletLogsQuery = {}): Promise<Result<T.AdminWalletLogs>> {
    return this.send('walletLogs', () =>
      this.api.GET('/manage/wallets/{hash}/logs', {
        headers: this.adminAuth,
        params: { path: { hash: walletHash(wallet) }, query: { limit: 20, ...query } },
      }),
    );
  }

  /** Wallets, credits in circulation and credits spent on each of the last `days` UTC days (GET /manage/stats; days 1 to 90, default 7). */
  adminStats(query: T.AdminStatsQuery = {}): Promise<Result<T.AdminStats>> {
    return this.send('serviceStats', () =>
      this.api.GET('/manage/stats', { headers: this.adminAuth, params: { query: { days: 7, ...query } } }),
    );
  }

  /** Adds `amount` credits to a wallet (a token or its hash). */
  adminCredit(wallet: string, amount: number, reason?: string): Promise<Result<T.AdminCredit>> {
    return this.send('walletCredit', () =>
      this.api.POST('/manage/wallets/{hash}/credit', this.amountRequest(wallet, amount, reason)),
    );
  }

  /** Takes `amount` credits from a wallet (a token or its hash), all or nothing (POST /manage/wallets/{hash}/debit); `Conflict` when the balance does not cover it. */
  adminDebit(wallet: string, amount: number, reason?: string): Promise<Result<T.AdminDebit>> {
    return this.send('walletDebit', () =>
      this.api.POST('/manage/wallets/{hash}/debit', this.amountRequest(wallet, amount, reason)),
    );
  }

  /** A credit's or debit's request: `amount` credits moved on `wallet` (a token or its hash), with the operator's reason if any. */
  private amountRequest(wallet: string, amount: number, reason: string | undefined) {
    return {
      headers: this.adminAuth,
      params: { path: { hash: walletHash(wallet) } },
      body: { amount, ...(reason === undefined ? {} : { reason }) },
    };
  }

  /** Deletes a wallet (a token or its hash) and all its data; its token answers 401 from then on (DELETE /manage/wallets/{hash}). */
  adminDelete(wallet: string): Promise<Result<string>> {
    return this.send('walletDelete', () =>
      this.api.DELETE('/manage/wallets/{hash}', {
        headers: this.adminAuth,
        params: { path: { hash: walletHash(wallet) } },
        parseAs: 'text',
      }),
    );
  }
}

/** A 64-hex-digit string (either case, as the service takes it) is taken as a hash already; anything else as a token. */
function walletHash(wallet: string): string {
  return /^[0-9a-f]{64}$/i.test(wallet) ? wallet.toLowerCase() : tokenHash(wallet);
}
