/**
 * The console's only way to the service: the public API, exactly as curl would call it, so every action is metered
 * and logged as the same call would be. Paths are relative to the service root (the console lives at <root>/console/),
 * so it works behind any host name or proxy prefix.
 */
import { session } from './session.js';

export interface Answer<T> {
  readonly status: number;
  readonly data: T;
  /** `x-cost`, when the call was metered. */
  readonly cost: number | undefined;
  /** `x-balance` after the call, when known. */
  readonly balance: number | undefined;
}

/** A 4xx/5xx answer: the service's plain-text message, and what it cost. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly cost: number | undefined,
    readonly balance: number | undefined,
    /** The refusal was of the operator's token, not the wallet's. */
    readonly admin = false,
    /** A 429's `retry-after`, in seconds. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export interface CallOptions {
  /** A JSON body. */
  readonly json?: unknown;
  /** A form body (application/x-www-form-urlencoded). */
  readonly form?: Record<string, string>;
  /** A plain-text body (KV values). */
  readonly text?: string;
  /** Query parameters; undefined and empty values are left out. */
  readonly query?: Record<string, string | number | boolean | undefined>;
  /** Send the operator's x-admin-token instead of the wallet's x-token. */
  readonly admin?: boolean;
}

type BalanceListener = (balance: number) => void;
const balanceListeners = new Set<BalanceListener>();
let lastBalance: number | undefined;

/** The balance from the last `x-balance` seen, if any. */
export const knownBalance = (): number | undefined => lastBalance;

/** Called with every `x-balance` the service sends, so the header shows the balance after the last call. */
export function onBalance(listener: BalanceListener): () => void {
  balanceListeners.add(listener);
  return () => balanceListeners.delete(listener);
}

const refusedListeners = new Set<() => void>();

/** Called when the service refuses the wallet's token (401: its wallet deleted, say), so the console stops using it. */
export function onTokenRefused(listener: () => void): () => void {
  refusedListeners.add(listener);
  return () => refusedListeners.delete(listener);
}

export const apiRoot = (): URL => new URL('../', document.baseURI);

export function apiUrl(path: string, query?: CallOptions['query']): string {
  const url = new URL(path.replace(/^\//, ''), apiRoot());
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  }
  return url.toString();
}

const headerNumber = (response: Response, name: string): number | undefined => {
  const value = response.headers.get(name);
  return value === null || value === '' ? undefined : Number(value);
};

/** Calls the API; resolves with the parsed answer (JSON, or text for text answers), rejects with an ApiError. */
export async function call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  const credential = options.admin ? session.adminToken() : session.token();
  if (credential !== null) headers[options.admin ? 'x-admin-token' : 'x-token'] = credential;
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.text !== undefined) {
    headers['content-type'] = 'text/plain; charset=utf-8';
    body = options.text;
  }
  const response = await fetch(apiUrl(path, options.query), {
    method,
    headers,
    body,
    cache: 'no-store',
    credentials: 'omit',
  });
  const cost = headerNumber(response, 'x-cost');
  const balance = headerNumber(response, 'x-balance');
  if (balance !== undefined && !options.admin) {
    lastBalance = balance;
    for (const listener of balanceListeners) listener(balance);
  }
  const text = await response.text();
  if (response.status === 401 && !options.admin && credential !== null)
    for (const listener of refusedListeners) listener();
  if (!response.ok)
    throw new ApiError(
      response.status,
      text.trim() || response.statusText,
      cost,
      balance,
      options.admin === true,
      headerNumber(response, 'retry-after'),
    );
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  const data = (isJson && text !== '' ? JSON.parse(text) : text) as T;
  return { status: response.status, data, cost, balance };
}

/**
 * A message for any failure: the service's own words for an ApiError, else the browser's. `needs` is what the call
 * costs, as its label said: a refusal for want of credits then says what was needed, what the wallet holds (x-balance)
 * and how credits get onto a wallet of a self-hosted service, since the service's own answer is only its two words.
 */
export function describeError(error: unknown, needs?: number): string {
  if (error instanceof ApiError && error.status === 402)
    return `${error.status}: ${error.message}. ${insufficientAdvice(needs, error.balance)}`;
  if (error instanceof ApiError && error.status === 429 && error.retryAfter !== undefined)
    return `${error.status}: ${error.message}. Try again in ${Math.max(1, Math.ceil(error.retryAfter))} s.`;
  if (error instanceof ApiError && error.status === 401 && !error.admin)
    return `${error.status}: ${error.message}. ${UNAUTHORIZED_ADVICE}`;
  if (error instanceof ApiError) return `${error.status}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

const credits = (count: number): string => `${count.toLocaleString('en')} credit${count === 1 ? '' : 's'}`;

export function insufficientAdvice(needs: number | undefined, balance: number | undefined): string {
  const need = needs === undefined ? 'This call needs more credits' : `This call needs ${credits(needs)}`;
  const has = balance === undefined ? '' : `; the wallet has ${credits(balance)}`;
  return (
    `${need}${has}. To add credits: get a payment link under Wallet → Recharge when this service takes card payments, ` +
    'or ask its operator to credit your wallet (Operator → the wallet → Adjust), giving your token hash from the Wallet page.'
  );
}

export const UNAUTHORIZED_ADVICE =
  'Check that the whole token was pasted (no space or line break cut into it), that it was made on this service ' +
  `(${typeof location === 'undefined' ? 'this address' : location.host}) and not another, and that its wallet was not deleted.`;
