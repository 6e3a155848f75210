/** Shapes of the webhook and delivery answers (src/features/webhooks/webhooks.schemas.ts, deliveries.schemas.ts). */

export interface ScheduleView {
  readonly cron: string;
  readonly timezone: string;
  readonly active: boolean;
  readonly nextRunAt?: string;
  readonly lastRunAt?: string;
  readonly lastStatus?: 'success' | 'failure';
  readonly lastError?: string;
}

export interface WebhookView {
  readonly webhookId: string;
  /** The callback URL. */
  readonly webhook: string;
  /** Header names as saved; values always `***`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly format?: string;
  readonly template?: Record<string, unknown>;
  /** Sensitive values (routing_key, …token/secret/password/key…) read back as `***`. */
  readonly options?: Readonly<Record<string, string>>;
  readonly includeAttachments?: boolean;
  readonly email?: string;
  readonly schedule?: ScheduleView;
  readonly retry?: { readonly attempts: number; readonly backoff: string };
  readonly hash?: string;
  /** Only on create and on `rotateSecret`. */
  readonly signingSecret?: string;
}

export interface WebhookList {
  readonly webhooks: WebhookView[];
}

export interface TestResult {
  readonly success: boolean;
  readonly message: string;
}

export type DeliveryStatus = 'success' | 'failure' | 'pending';

export interface DeliverySummary {
  readonly id: string;
  readonly trigger: string;
  readonly createdAt: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly lastAttemptAt: string | null;
  readonly nextAttemptAt: string | null;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
}

export interface DeliveryList {
  readonly deliveries: DeliverySummary[];
  readonly n: number;
}

export interface Attempt {
  readonly attempt: number;
  readonly trigger: string;
  readonly at: string;
  readonly statusCode: number | null;
  readonly ms: number;
  readonly error: string | null;
  readonly responseBody: string | null;
}

export interface DeliveryDetail extends Omit<DeliverySummary, 'attempts'> {
  readonly attempts: Attempt[];
  /** The exact JSON text sent; null when over 1 MiB. */
  readonly body: string | null;
}

export interface RedeliveryResult {
  readonly success: boolean;
  readonly attempt: number;
  readonly statusCode: number | null;
  readonly message: string;
}

/** Every webhook call costs 1 credit (docs/contract.md#costs); the delivery history is free. */
export const WEBHOOK_CALL_COST = 1;
/**
 * What a redelivery costs: what the delivery's first attempt cost (redeliver.routes.ts): 1 for a test, 2 for a
 * scheduled run; mail costs 2 or 5 (with attachments), which the history does not say, so undefined.
 */
export function redeliveryCost(trigger: string): number | undefined {
  if (trigger === 'test') return 1;
  if (trigger === 'schedule') return 2;
  return undefined;
}
