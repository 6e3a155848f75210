/**
 * The webhook id rule, alone and free of the HTTP layer, so the web console checks ids with the same code before
 * sending them: the pattern the request schemas enforce, and the ids kept for the service's own paths.
 */
export const WEBHOOK_ID_PATTERN = '^[A-Za-z0-9_-]{1,30}$';
export const WEBHOOK_ID_RULE = 'must be 1 to 30 characters from A-Z, a-z, 0-9, _ and -';
export const RESERVED_WEBHOOK_IDS: ReadonlySet<string> = new Set(['call']);

export function checkWebhookId(webhookId: string): string | null {
  return RESERVED_WEBHOOK_IDS.has(webhookId) ? `Invalid webhookId: ${webhookId} is reserved` : null;
}
