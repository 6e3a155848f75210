import { setImmediate } from 'node:timers/promises';
import type { Deps } from '../../deps.js';
import { logId } from '../../lib/ids.js';
import { OUTBOX_RECOVERY_INTERVAL_MS, OutboxDeliverer } from '../../delivery-core/index.js';
import type { OutboxTarget, ReadyDelivery } from '../../delivery-core/index.js';
import type { Sql } from '../../store/store.js';
import { deliveryTargetOf, findMailboxWebhooks, findWebhook } from '../webhooks/index.js';
import type { MailboxMode, WebhookRecord } from '../webhooks/index.js';
import { AttachmentKey } from './attachment-links.js';
import * as limits from './mail-limits.js';
import { insertAttachment, mailboxesThatSaw } from './mail.queries.js';
import { DUPLICATE_WINDOW_MS, claimFirstDeliveries, messageHashOf } from './duplicate-mail.js';
import { MessageParseError } from './mime-parse.js';
import { MessageParseThread } from './parse-thread.js';
import type { ParsedMessage } from './mime-parse.js';
import { messageIdOf } from './payload.js';
import type { MessageContext } from './payload.js';
import { BodyTooLarge, MessageWork, costOf, planDelivery } from './delivery-plan.js';
import type { DeliveryPlan } from './delivery-plan.js';
import { mailboxOf } from './recipients.js';
import { Spool, SpoolFolder } from './spool.js';
import { errors, INSUFFICIENT_CREDITS } from '../../errors.js';
import type { FairLimiter } from '../../lib/fair-limiter.js';

/**
 * The inbound pipeline shared by the SMTP listener and POST /inbound/raw: recipient checks, then
 * for each message parse → one payload per mailbox → charge, outbox and attachments recorded in one
 * unit of work → acknowledge → deliver. The caller answers the sender only after `accept` resolves,
 * i.e. once the charge and the promised delivery are durable.
 */

export interface InboundOptions {
  readonly maxMessageBytes?: number;
  /** Default OUTBOX_RECOVERY_INTERVAL_MS; 0 turns the periodic look off (tests call recover()). */
  readonly recoveryIntervalMs?: number;
}

export interface InboundEnvelope {
  /** MAIL FROM, empty for the null sender. */
  readonly mailFrom: string;
  /** Mailbox ids (checked with `checkRecipient`), each once. */
  readonly mailboxes: readonly string[];
  readonly provider: string;
  readonly remoteAddress?: string;
  readonly heloName?: string;
}

export type RecipientCheck =
  { readonly kind: 'ok'; readonly mailbox: string } | { readonly kind: 'unknown' } | { readonly kind: 'insufficient' };

export type AcceptOutcome =
  | { readonly kind: 'accepted'; readonly externalMessageId: string; readonly deliveries: number }
  | { readonly kind: 'oversized' }
  | { readonly kind: 'no-mailbox' }
  | { readonly kind: 'insufficient' }
  | { readonly kind: 'unparsable'; readonly reason: string };

interface Target {
  readonly mailbox: string;
  readonly walletId: number;
  readonly record: WebhookRecord;
  readonly mode: MailboxMode;
  /** The wallet's balance when the mailboxes were looked up. */
  readonly balance: number;
}

class InsufficientCredits extends Error {
  constructor(
    readonly plan: DeliveryPlan,
    readonly balance: number,
  ) {
    super(INSUFFICIENT_CREDITS);
  }
}

export class InboundMail {
  readonly maxMessageBytes: number;
  /** Messages parsed at once, each wallet within its share (deps.pools.mailParsing). */
  private readonly parsing: FairLimiter;
  private readonly key: AttachmentKey;
  private readonly deliverer: OutboxDeliverer;
  /** Messages are decoded on a thread of their own: a large text part holds it, not the event loop. */
  private readonly parser = new MessageParseThread();

  private constructor(
    private readonly deps: Deps,
    private readonly folder: SpoolFolder,
    options: InboundOptions,
  ) {
    this.maxMessageBytes = options.maxMessageBytes ?? limits.MAX_MESSAGE_BYTES;
    this.parsing = deps.pools.mailParsing;
    this.key = new AttachmentKey(deps.store, () => deps.clock.now());
    const recoveryIntervalMs = options.recoveryIntervalMs ?? OUTBOX_RECOVERY_INTERVAL_MS;
    this.deliverer = new OutboxDeliverer(deps, {
      pool: deps.pools.mailDeliveries,
      findTarget: (walletId, webhookId) => findMailboxTarget(deps.store.read, walletId, webhookId),
      recoveryIntervalMs: recoveryIntervalMs > 0 ? recoveryIntervalMs : undefined,
    });
  }

  static async create(deps: Deps, options: InboundOptions = {}): Promise<InboundMail> {
    return new InboundMail(deps, await SpoolFolder.create(), options);
  }

  /** RCPT TO: one of our mailboxes, whose wallet can pay at least the cheaper price. */
  async checkRecipient(address: string): Promise<RecipientCheck> {
    const mailbox = mailboxOf(address, this.deps.config.mailDomain);
    if (mailbox === null) return { kind: 'unknown' };
    const found = (await findMailboxWebhooks(this.deps.store.read, [mailbox])).get(mailbox);
    if (found === undefined) return { kind: 'unknown' };
    if (found.balance < limits.COST_WITHOUT_ATTACHMENTS) {
      this.deps.ledger.recordRefusal(found.walletId, found.record.webhookId, found.balance);
      return { kind: 'insufficient' };
    }
    return { kind: 'ok', mailbox };
  }

  /** A holder for one raw message while it arrives. */
  newSpool(): Spool {
    return new Spool(this.folder, this.maxMessageBytes, limits.SPOOL_MEMORY_BYTES);
  }

  /** Processes one received message; `receivedAt` is the end of DATA. The spool is disposed of. */
  async accept(spool: Spool, envelope: InboundEnvelope, receivedAt = this.deps.clock.now()): Promise<AcceptOutcome> {
    try {
      if (spool.oversized) return { kind: 'oversized' };
      const targets = await this.loadTargets(envelope.mailboxes);
      if (targets.length === 0) return { kind: 'no-mailbox' };
      // The slot is held until the message is recorded: at most the pool's slots of decoded messages in memory.
      return await this.parsing.run(parseKey(targets), async () => {
        const keepAttachments = targets.some((target) => target.mode.includeAttachments);
        let parsed;
        try {
          parsed = await this.parser.parse(parseKey(targets), {
            source: spool.source(),
            options: { keepAttachments, maxAttachmentBytes: limits.ATTACHMENT_MAX_BYTES },
          });
        } catch (error) {
          if (error instanceof MessageParseError) return { kind: 'unparsable', reason: error.message } as const;
          throw error;
        } finally {
          await spool.dispose();
        }
        const needsKey = keepAttachments && parsed.attachments.some((attachment) => attachment.content !== undefined);
        const key = needsKey ? await this.key.get() : undefined;
        const context = {
          externalMessageId: messageIdOf(parsed, () => `${logId()}@${this.deps.config.mailDomain}`),
          receivedAt,
          provider: envelope.provider,
          publicUrl: this.deps.config.publicUrl,
          mailDomain: this.deps.config.mailDomain,
          envelopeFrom: envelope.mailFrom,
          size: spool.size,
          remoteAddress: envelope.remoteAddress,
          heloName: envelope.heloName,
        };
        const messageHash = messageHashOf(parsed);
        // A mailbox that got this message already is answered as before, and not delivered to or charged again.
        const fresh = messageHash === undefined ? targets : await this.notYetSeen(targets, messageHash);
        if (fresh.length === 0)
          return { kind: 'accepted', externalMessageId: context.externalMessageId, deliveries: 0 } as const;
        // Nothing is built for a message that some wallet cannot pay: the sender retries it (452).
        const short = this.walletShort(parsed, fresh);
        if (short !== undefined) {
          this.deps.ledger.recordRefusal(short.walletId, short.record.webhookId, short.balance);
          return { kind: 'insufficient' } as const;
        }
        const plans = await this.plan(new MessageWork(parsed), context, fresh, key);
        const recorded = await this.record(plans, messageHash);
        if (recorded === 'insufficient') return { kind: 'insufficient' } as const;
        for (const ready of recorded) this.deliverer.push(ready);
        return { kind: 'accepted', externalMessageId: context.externalMessageId, deliveries: recorded.length } as const;
      });
    } finally {
      await spool.dispose();
    }
  }

  /** Takes over outbox entries left by an instance that stopped; returns how many. */
  recover(): Promise<number> {
    return this.deliverer.recover();
  }

  /** Resolves when no delivery is running or waiting (tests, benchmarks). */
  idle(): Promise<void> {
    return this.deliverer.idle();
  }

  async close(): Promise<void> {
    await this.parser.close();
    await this.deliverer.close();
    await this.folder.remove();
  }

  private async loadTargets(mailboxes: readonly string[]): Promise<Target[]> {
    const unique = [...new Set(mailboxes)];
    const found = await findMailboxWebhooks(this.deps.store.read, unique);
    const targets: Target[] = [];
    for (const mailbox of unique) {
      const webhook = found.get(mailbox);
      // Absent: deleted since RCPT.
      if (webhook === undefined || webhook.record.mode.kind !== 'mailbox') continue;
      targets.push({
        mailbox,
        walletId: webhook.walletId,
        record: webhook.record,
        mode: webhook.record.mode,
        balance: webhook.balance,
      });
    }
    return targets;
  }

  /** The targets that have not got this message within DUPLICATE_WINDOW_MS (as last read; `record` claims). */
  private async notYetSeen(targets: readonly Target[], messageHash: string): Promise<readonly Target[]> {
    const mailboxes = targets.map((target) => target.mailbox);
    const seen = await mailboxesThatSaw(
      this.deps.store.read,
      mailboxes,
      messageHash,
      this.deps.clock.now() - DUPLICATE_WINDOW_MS,
    );
    if (seen.size > 0)
      this.deps.logger.info(
        { mailboxes: [...seen] },
        'inbound message already delivered to these mailboxes: not again',
      );
    return targets.filter((target) => !seen.has(target.mailbox));
  }

  /** The first target whose wallet, as last read, cannot pay for all of its mailboxes. */
  private walletShort(parsed: ParsedMessage, targets: readonly Target[]): Target | undefined {
    const owed = new Map<number, number>();
    for (const target of targets) {
      const total = (owed.get(target.walletId) ?? 0) + costOf(parsed, target.mode);
      owed.set(target.walletId, total);
      if (total > target.balance) return target;
    }
    return undefined;
  }

  /**
   * One body per mailbox, all of them together within MESSAGE_BODIES_MAX_BYTES: each mailbox may
   * use an equal share of what is left (and at most the 1 MiB rule). A mailbox whose body cannot
   * fit is skipped, not charged, and logged. Each body may take tens of milliseconds for a large message,
   * so the event loop gets a turn between mailboxes: a message to 50 mailboxes never holds it for all 50.
   */
  private async plan(
    work: MessageWork,
    context: MessageContext,
    targets: readonly Target[],
    key: Buffer | undefined,
  ): Promise<DeliveryPlan[]> {
    const plans: DeliveryPlan[] = [];
    let left = limits.MESSAGE_BODIES_MAX_BYTES;
    for (const [i, target] of targets.entries()) {
      if (i > 0) await setImmediate();
      const share = Math.floor(left / (targets.length - i));
      try {
        const plan = planDelivery(
          work,
          context,
          { mailbox: target.mailbox, walletId: target.walletId, record: target.record, mode: target.mode, key },
          share,
        );
        left -= Buffer.byteLength(plan.bodyJson, 'utf8');
        plans.push(plan);
      } catch (error) {
        if (!(error instanceof BodyTooLarge)) throw error;
        logOversizedDelivery(this.deps, target, error);
      }
    }
    return plans;
  }

  /**
   * One unit of work for the whole message: every recipient's duplicate claim, charge, attachments and outbox
   * entry. If one wallet cannot pay, nothing is recorded and the sender is told to retry (452).
   */
  private async record(
    plans: readonly DeliveryPlan[],
    messageHash: string | undefined,
  ): Promise<ReadyDelivery[] | 'insufficient'> {
    const now = this.deps.clock.now();
    try {
      return await this.deps.store.write(async (tx) => {
        const ready: ReadyDelivery[] = [];
        const firstSeen = messageHash === undefined ? plans : await claimFirstDeliveries(tx, plans, messageHash, now);
        // A wallet's mailboxes share its copy of each attachment (MessageWork.attachmentId): stored once.
        const stored = new Set<string>();
        for (const plan of firstSeen) {
          const charged = await this.deps.ledger.chargeIn(tx, plan.walletId, plan.cost);
          if (!charged.ok) {
            if (charged.balance === undefined) continue; // the wallet was deleted: its mailbox with it
            throw new InsufficientCredits(plan, charged.balance);
          }
          for (const attachment of plan.attachments) {
            if (stored.has(attachment.id)) continue;
            stored.add(attachment.id);
            await insertAttachment(tx, attachment);
          }
          const entry = {
            walletId: plan.walletId,
            webhookId: plan.record.webhookId,
            body: plan.bodyJson,
            cost: plan.cost,
            balance: charged.balance,
          };
          // The webhook's keys as they are: its previous signing key signs too while a rotation's overlap lasts.
          ready.push(await this.deliverer.recordIn(tx, entry, mailboxTargetOf(plan.record), now));
        }
        return ready;
      });
    } catch (error) {
      if (!(error instanceof InsufficientCredits)) throw error;
      this.deps.ledger.recordRefusal(error.plan.walletId, error.plan.record.webhookId, error.balance);
      return 'insufficient';
    }
  }
}

/** Where a mailbox's deliveries go, how they are signed and retried: the webhook as it is. */
function mailboxTargetOf(record: WebhookRecord): OutboxTarget {
  return { ...deliveryTargetOf(record), retryAttempts: record.retryAttempts };
}

/** The outbox's view of a mailbox: its target, or undefined once the webhook is gone or no longer a mailbox. */
async function findMailboxTarget(sql: Sql, walletId: number, webhookId: string): Promise<OutboxTarget | undefined> {
  const record = await findWebhook(sql, walletId, webhookId);
  return record === undefined || record.mode.kind !== 'mailbox' ? undefined : mailboxTargetOf(record);
}

/**
 * Whose share of the parse slots a message takes: the wallet of its first recipient mailbox. The recipients are
 * checked at RCPT and loaded before parsing, so the paying wallet is known (not just the SMTP client); a message to
 * mailboxes of several wallets counts against the first one the sender named. One wallet's flood of mail is parsed
 * within its share while another wallet's messages take the other slots.
 */
export function parseKey(targets: readonly { readonly walletId: number }[]): number {
  const [first] = targets;
  if (first === undefined) throw new Error('a message with no target is not parsed');
  return first.walletId;
}

/**
 * A mailbox skipped because its body cannot fit its byte budget (a template whose own text is too
 * big for its share): logged like a refused call, 413, so the owner sees why; nothing charged or sent.
 */
function logOversizedDelivery(deps: Deps, target: Target, error: BodyTooLarge): void {
  deps.logger.warn(
    { mailbox: target.mailbox, webhookId: target.record.webhookId, maxBytes: error.maxBytes },
    'inbound delivery skipped: body over its byte limit',
  );
  deps.ledger.record({
    walletId: target.walletId,
    method: 'POST',
    path: target.record.webhookId,
    endpoint: 'webhook-delivery',
    statusCode: 413,
    responseTimeMs: 0,
    error: errors.payloadTooLarge().body,
    cost: 0,
    balance: target.balance,
  });
}
