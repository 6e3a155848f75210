import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { base32Id } from '../../lib/ids.js';
import { OutboundError } from '../../outbound/outbound-client.js';
import { newSigningSecret, SIGNING_KEY_OVERLAP_MS } from '../../delivery-core/index.js';
import type { WebhookConfig, WebhookRecord } from './webhook-record.js';
import { NO_HISTORY } from './webhook-record.js';
import type { RuleResult } from './webhook-rules.js';
import {
  checkWebhookId,
  RENAME_REFUSED,
  configFromInput,
  configFromPatch,
  DEFAULT_WEBHOOK_ID,
  MAX_WEBHOOKS_PER_WALLET,
} from './webhook-rules.js';
import type { WebhookInput, WebhookPatch } from './webhooks.schemas.js';
import {
  countWebhooks,
  findWebhook,
  findWebhookForUpdate,
  insertWebhook,
  lockWalletWebhooks,
  updateWebhook,
} from './webhooks.queries.js';

/** Mailbox local part: `r_` + 16 lowercase base32 characters (docs/contract.md#webhooks), 80 random bits. */
const newMailbox = (): string => `r_${base32Id(16)}`;

/**
 * Without the SMTP listener (SMTP_PORT=0) and the relay (INBOUND_SECRET), no e-mail can reach this service:
 * a new mailbox address would never receive anything, so none is handed out (docs/reference.md#inbound-e-mail).
 */
import { NO_INBOUND_MAIL } from './inbound-mail-rule.js';

export { NO_INBOUND_MAIL };

function newMailboxIf(receivesMail: boolean): string {
  if (!receivesMail) throw errors.badRequest(NO_INBOUND_MAIL);
  return newMailbox();
}

function valid<T>(result: RuleResult<T>): T {
  if (!result.ok) throw errors.badRequest(result.error);
  return result.value;
}

/** The save-time URL check: HTTPS, and a host that resolves to public addresses only. */
async function checkCallbackUrl(deps: Deps, url: string): Promise<void> {
  try {
    await deps.outbound.checkUrl(url);
  } catch (error) {
    if (error instanceof OutboundError) throw errors.badRequest(error.message);
    throw error;
  }
}

type SigningFields = Pick<WebhookRecord, 'signingSecret' | 'previousSigningKey'>;

/**
 * The signing keys after a change. A rotation keeps the secret it replaces, so deliveries carry both signatures
 * for SIGNING_KEY_OVERLAP_MS (src/delivery-core/signing.ts); rotating again within it drops the older one. Without a rotation
 * the keys stay, less a previous secret whose overlap is over (no reason to keep it stored).
 */
function signingAfter(current: WebhookRecord, newSecret: string | undefined, now: number): SigningFields {
  if (newSecret !== undefined)
    return { signingSecret: newSecret, previousSigningKey: { secret: current.signingSecret, rotatedAt: now } };
  const previous = current.previousSigningKey;
  const inOverlap = previous !== undefined && now - previous.rotatedAt < SIGNING_KEY_OVERLAP_MS;
  return inOverlap
    ? { signingSecret: current.signingSecret, previousSigningKey: previous }
    : { signingSecret: current.signingSecret };
}

/** A change made at `now`: `newSecret` when it rotates the signing secret; `receivesMail` as createWebhook takes it. */
interface Change {
  readonly now: number;
  readonly newSecret: string | undefined;
  readonly receivesMail: boolean;
}

/** The stored record after a change: the mailbox stays while in mailbox mode, run history while scheduled. */
function changed(
  current: WebhookRecord,
  config: WebhookConfig,
  { now, newSecret, receivesMail }: Change,
): WebhookRecord {
  const signing = signingAfter(current, newSecret, now);
  const mailbox = config.mode.kind === 'mailbox' ? (current.mailbox ?? newMailboxIf(receivesMail)) : null;
  const history = config.mode.kind === 'scheduled' && current.mode.kind === 'scheduled' ? current.history : NO_HISTORY;
  return {
    ...config,
    webhookId: current.webhookId,
    mailbox,
    ...signing,
    history,
    createdAt: current.createdAt,
    updatedAt: now,
  };
}

/** `receivesMail`: the SMTP listener or the relay is on (app.ts); without, no new mailbox address is handed out. */
export async function createWebhook(
  deps: Deps,
  walletId: number,
  input: WebhookInput,
  receivesMail: boolean,
): Promise<WebhookRecord> {
  const webhookId = input.webhookId ?? DEFAULT_WEBHOOK_ID;
  const idError = checkWebhookId(webhookId);
  if (idError !== null) throw errors.badRequest(idError);
  const now = deps.clock.now();
  const config = valid(configFromInput(input, new Date(now)));
  const mailbox = config.mode.kind === 'mailbox' ? newMailboxIf(receivesMail) : null;
  await checkCallbackUrl(deps, config.url);
  const record: WebhookRecord = {
    ...config,
    webhookId,
    mailbox,
    signingSecret: newSigningSecret(),
    history: NO_HISTORY,
    createdAt: now,
    updatedAt: now,
  };
  await deps.store.write(async (tx) => {
    await lockWalletWebhooks(tx, walletId);
    if ((await findWebhook(tx, walletId, webhookId)) !== undefined) throw errors.webhookExists();
    if ((await countWebhooks(tx, walletId)) >= MAX_WEBHOOKS_PER_WALLET) {
      throw errors.badRequest(`Too many webhooks: a wallet may hold at most ${MAX_WEBHOOKS_PER_WALLET}`);
    }
    if (!(await insertWebhook(tx, walletId, record))) throw errors.webhookExists();
  });
  return record;
}

/** A wallet's webhook by its id. */
export interface WebhookRef {
  readonly walletId: number;
  readonly webhookId: string;
}

export async function replaceWebhook(
  deps: Deps,
  { walletId, webhookId }: WebhookRef,
  input: WebhookInput,
  receivesMail: boolean,
): Promise<WebhookRecord> {
  if (input.webhookId !== undefined && input.webhookId !== webhookId) {
    throw errors.badRequest(RENAME_REFUSED);
  }
  const now = deps.clock.now();
  const config = valid(configFromInput(input, new Date(now)));
  await checkCallbackUrl(deps, config.url);
  return deps.store.write(async (tx) => {
    const current = await findWebhookForUpdate(tx, walletId, webhookId);
    if (current === undefined) throw errors.webhookNotFound();
    const record = changed(current, config, { now, newSecret: undefined, receivesMail });
    await updateWebhook(tx, walletId, record);
    return record;
  });
}

export interface PatchOutcome {
  readonly record: WebhookRecord;
  /** Set when the patch asked for `rotateSecret`: shown once. */
  readonly newSecret?: string;
}

export async function patchWebhook(
  deps: Deps,
  { walletId, webhookId }: WebhookRef,
  patch: WebhookPatch,
  receivesMail: boolean,
): Promise<PatchOutcome> {
  const now = deps.clock.now();
  // Validate against what is stored now, and check a new URL before taking the write lane:
  // the check may wait on DNS.
  const seen = await findWebhook(deps.store.read, walletId, webhookId);
  if (seen === undefined) throw errors.webhookNotFound();
  valid(configFromPatch(seen, patch, new Date(now)));
  if (patch.url !== undefined) await checkCallbackUrl(deps, patch.url);
  const newSecret = patch.rotateSecret === true ? newSigningSecret() : undefined;
  return deps.store.write(async (tx) => {
    // Applied to the row as it is under the lock, so a concurrent change or scheduler run is not undone.
    const current = await findWebhookForUpdate(tx, walletId, webhookId);
    if (current === undefined) throw errors.webhookNotFound();
    const config = valid(configFromPatch(current, patch, new Date(now)));
    const record = changed(current, config, { now, newSecret, receivesMail });
    await updateWebhook(tx, walletId, record);
    return newSecret === undefined ? { record } : { record, newSecret };
  });
}
