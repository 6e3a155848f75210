import type { Deps } from '../../deps.js';
import { deliver } from '../../delivery-core/index.js';
import { formatEmail } from '../../formats/index.js';
import { signingKeysOf } from './delivery.js';
import type { WebhookRecord } from './webhook-record.js';
import { testInboundEmail, testScheduledRun } from './test-payloads.js';
import { mailboxAddress } from './webhooks.view.js';

export interface TestOutcome {
  readonly success: boolean;
  readonly message: string;
}

export interface TestDeliveryContext {
  readonly walletId: number;
  readonly walletHash: string;
  /** What the test call was charged and the balance after it. */
  readonly cost: number;
  readonly balance: number;
}

/** The body a test sends: the dummy payload of the webhook's mode, formatted as a real delivery would be. */
export function testBody(deps: Deps, record: WebhookRecord, walletHash: string): unknown {
  const now = deps.clock.now();
  const { mode } = record;
  if (mode.kind === 'scheduled') return testScheduledRun(record.webhookId, walletHash, now);
  const to = mailboxAddress(record.mailbox ?? '', deps.config.mailDomain);
  return formatEmail(mode.format, testInboundEmail(to, now), {
    options: mode.options,
    template: mode.template ?? undefined,
  });
}

/**
 * One signed delivery of the dummy payload (docs/contract.md#deliveries), logged by src/delivery-core like
 * every delivery (the receiver's status, the error, the delivery id), so the route's own log row is skipped.
 * A failed delivery is an outcome, not an error: the answer stays 200 (docs/contract.md#deliveries).
 */
export async function sendTestDelivery(
  deps: Deps,
  record: WebhookRecord,
  context: TestDeliveryContext,
): Promise<TestOutcome> {
  const result = await deliver(deps, {
    trigger: 'test',
    walletId: context.walletId,
    webhookId: record.webhookId,
    url: record.url,
    headers: record.headers,
    signingKeys: signingKeysOf(record),
    retryAttempts: record.retryAttempts,
    body: testBody(deps, record, context.walletHash),
    cost: context.cost,
    balance: context.balance,
  });
  return result.ok
    ? { success: true, message: 'test webhook delivered' }
    : { success: false, message: `webhook call failed: ${result.cause}` };
}
