import { sha256Hex } from '../../lib/hash.js';
import { DAY } from '../../lib/time.js';
import type { Sql } from '../../store/store.js';
import type { DeliveryPlan } from './delivery-plan.js';
import { claimMessageForMailbox } from './mail.queries.js';
import type { ParsedMessage } from './mime-parse.js';
import { messageIdOf } from './payload.js';

/**
 * A message whose Message-ID a mailbox got within this long is accepted again but neither delivered nor charged
 * again (a sender retrying after a lost reply, a relay posting twice). A message without a Message-ID is never
 * taken for a repeat.
 */
export const DUPLICATE_WINDOW_MS = DAY;

/** What the duplicate check keys on: a hash of the Message-ID as delivered; undefined when the message has none. */
export function messageHashOf(parsed: ParsedMessage): string | undefined {
  const id = messageIdOf(parsed, () => '');
  return id === '' ? undefined : sha256Hex(id);
}

/**
 * The plans whose mailbox had no delivery of this message within DUPLICATE_WINDOW_MS, each claimed in the unit
 * that charges it (a lost race or a rollback leaves nothing claimed). Claimed in mailbox order, so units of two
 * instances routing the same message take the claims' row locks in one order.
 */
export async function claimFirstDeliveries(
  tx: Sql,
  plans: readonly DeliveryPlan[],
  messageHash: string,
  now: number,
): Promise<DeliveryPlan[]> {
  const claimed = new Set<DeliveryPlan>();
  const byMailbox = plans.flatMap((plan) =>
    plan.record.mailbox === null ? [] : [{ plan, mailbox: plan.record.mailbox }],
  );
  byMailbox.sort((a, b) => (a.mailbox < b.mailbox ? -1 : a.mailbox > b.mailbox ? 1 : 0));
  for (const { plan, mailbox } of byMailbox) {
    if (await claimMessageForMailbox(tx, { mailbox, messageHash, now, staleBefore: now - DUPLICATE_WINDOW_MS }))
      claimed.add(plan);
  }
  return plans.filter((plan) => plan.record.mailbox === null || claimed.has(plan));
}
