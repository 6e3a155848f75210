/** What a call cost and the wallet's balance after it, from the `x-cost` and `x-balance` headers (absent on free, unmetered calls). */
export interface Charge {
  readonly cost: number;
  readonly balance: number | undefined;
}

export interface CoinopErrorDetails extends Charge {
  readonly status: number;
  /** The answer's body as text: the service's errors are plain text (a DNS 400 may be JSON). */
  readonly body: string;
  /** Seconds to wait before trying again, from `retry-after` (429, 503). */
  readonly retryAfter?: number | undefined;
}

/**
 * What an error body says, for a message: the plain text itself, or the `error` of a JSON failure body (URL metadata
 * answers `{"success": false, "error": "…"}`, a DNS 400 may answer `{"error": "…", "field": "…"}`, read as
 * `<error> (<field>)`), so a message reads the same whichever shape the route answers in. The console reads its
 * errors with it too.
 */
export function errorText(body: string): string {
  if (!body.startsWith('{')) return body;
  try {
    const parsed = JSON.parse(body) as { error?: unknown; field?: unknown };
    if (typeof parsed.error === 'string')
      return typeof parsed.field === 'string' ? `${parsed.error} (${parsed.field})` : parsed.error;
  } catch {
    // Not JSON after all: the text as it came.
  }
  return body;
}

/** Any refused or failed call; the subclass names the cause. `status` is 0 when no answer came (network). */
export class CoinopError extends Error implements CoinopErrorDetails {
  readonly status: number;
  readonly body: string;
  readonly cost: number;
  readonly balance: number | undefined;
  readonly retryAfter: number | undefined;

  constructor(details: CoinopErrorDetails, options?: ErrorOptions) {
    const said = errorText(details.body);
    super(details.status === 0 ? said : `${details.status}: ${said}`, options);
    this.name = new.target.name;
    this.status = details.status;
    this.body = details.body;
    this.cost = details.cost;
    this.balance = details.balance;
    this.retryAfter = details.retryAfter;
  }
}

export class BadRequest extends CoinopError {}

/**
 * Input the service would refuse with this 400 body (and charge for), refused by the client with the service's own
 * rules before anything is sent: `cost` 0, `balance` undefined (nothing was asked).
 */
export class InvalidInput extends BadRequest {
  constructor(body: string) {
    super({ status: 400, body, cost: 0, balance: undefined });
    this.message = `${body} (checked before sending: nothing was sent or charged)`;
  }
}

export class Unauthorized extends CoinopError {}

/** 402: `needed` is what the call costs (known to the client from the service's document), `balance` what the wallet holds. */
export class InsufficientCredits extends CoinopError {
  readonly needed: number | undefined;

  constructor(details: CoinopErrorDetails & { readonly needed?: number | undefined }, options?: ErrorOptions) {
    super(details, options);
    this.needed = details.needed;
    const needs = details.needed === undefined ? undefined : `the call costs ${credits(details.needed)}`;
    const has = details.balance === undefined ? undefined : `the wallet holds ${credits(details.balance)}`;
    const said = [needs, has].filter((part) => part !== undefined).join(' and ');
    if (said !== '') this.message = `${this.message}: ${said}`;
  }
}

const credits = (count: number): string => `${count} ${count === 1 ? 'credit' : 'credits'}`;

export class Forbidden extends CoinopError {}
export class NotFound extends CoinopError {}
export class MethodNotAllowed extends CoinopError {}
export class Conflict extends CoinopError {}
export class PayloadTooLarge extends CoinopError {}
export class RateLimited extends CoinopError {}
/** Any other 4xx answer. */
export class ClientError extends CoinopError {}
/** 500, 501, 502 and other 5xx answers but 503. */
export class ServerError extends CoinopError {}
export class ServiceUnavailable extends CoinopError {}
/** No answer: the service could not be reached, or the connection broke. */
export class ConnectionFailed extends CoinopError {}

const BY_STATUS: Readonly<Record<number, typeof CoinopError>> = {
  400: BadRequest,
  401: Unauthorized,
  402: InsufficientCredits,
  403: Forbidden,
  404: NotFound,
  405: MethodNotAllowed,
  409: Conflict,
  413: PayloadTooLarge,
  429: RateLimited,
  503: ServiceUnavailable,
};

/** The typed error for an answer's status; `needed` is the call's price, for a 402. */
export function errorForStatus(details: CoinopErrorDetails & { readonly needed?: number | undefined }): CoinopError {
  if (details.status === 402) return new InsufficientCredits(details);
  const ErrorClass = BY_STATUS[details.status] ?? (details.status >= 500 ? ServerError : ClientError);
  return new ErrorClass(details);
}
