/**
 * The one catalogue of client-visible errors: status and plain-text body.
 * Every error a route can answer with is built here, so bodies stay exactly as docs/contract.md#errors fixes them.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(body);
    this.name = 'ApiError';
  }
}

/** The 402 body, also the text of a delivery or mail refused for want of credits. */
export const INSUFFICIENT_CREDITS = 'Insufficient credits';

export const errors = {
  badRequest: (message: string) => new ApiError(400, message),
  invalidField: (field: string, rule: string) => new ApiError(400, `Invalid ${field}: ${rule}`),
  unauthorized: () => new ApiError(401, 'Unauthorized'),
  insufficientCredits: () => new ApiError(402, INSUFFICIENT_CREDITS),
  forbidden: () => new ApiError(403, 'Forbidden'),
  keyNotFound: () => new ApiError(404, 'Key Not Found'),
  webhookNotFound: () => new ApiError(404, 'Webhook not found'),
  deliveryNotFound: () => new ApiError(404, 'Delivery not found'),
  notFound: () => new ApiError(404, 'Not Found'),
  methodNotAllowed: (allow: readonly string[]) => new ApiError(405, 'Method Not Allowed', { allow: allow.join(', ') }),
  webhookExists: () => new ApiError(409, 'Webhook ID already exists'),
  /** Operator API: a debit larger than the wallet's balance; nothing was taken. */
  balanceTooLow: () => new ApiError(409, 'Balance too low'),
  payloadTooLarge: () => new ApiError(413, 'Payload Too Large'),
  /** A delivery whose body is no longer kept (7 days, over 1 MiB, or e-mail content after its delivery ended): no redelivery. */
  deliveryExpired: () => new ApiError(410, 'Delivery expired'),
  tooManyRequests: (retryAfterSeconds: number) =>
    new ApiError(429, 'Too Many Requests', { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) }),
  internal: () => new ApiError(500, 'Internal Server Error'),
  rechargeNotConfigured: () => new ApiError(501, 'Recharge is not configured'),
  badGateway: (cause: string) => new ApiError(502, cause),
  /** `retryAfterSeconds`: when the caller may try again (a wallet over its share of a shared pool). */
  unavailable: (cause: string, retryAfterSeconds?: number) =>
    new ApiError(
      503,
      cause,
      retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    ),
  /** The store is unreachable or not answering in time (docs/reference.md#while-the-database-is-away). */
  storeUnavailable: () => new ApiError(503, 'Service Unavailable', { 'retry-after': '2' }),
} as const;

export type ErrorName = keyof typeof errors;

/** The wording of the 400 that `check` throws, or null when it passes: a route's check asked before any charge. */
export function badRequestOf(check: () => unknown): string | null {
  try {
    check();
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 400) return error.body;
    throw error;
  }
}
