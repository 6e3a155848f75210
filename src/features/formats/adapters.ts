import { discordBody, slackBody, teamsBody, telegramBody } from './chat.js';
import { emailMessage, lowBalanceMessage, type ChatMessage } from './message.js';
import { pagerDutyEmail, pagerDutyLowBalance } from './pagerduty.js';
import { isWebhookFormat, type InboundEmailPayload, type LowBalanceEvent, type LowBalancePayload, type WebhookFormat } from './payloads.js';
import { renderTemplate } from './template-engine.js';

/**
 * Entry points used by deliveries: the JSON body to POST for a mail or a
 * low-balance notification, given the webhook's format settings. Pure: the
 * caller serializes the result and sends it.
 */

export interface FormatSettings {
  /** Saved options (validateFormatConfig guarantees strings). */
  options?: Readonly<Record<string, string>>;
  /** Saved custom template. */
  template?: unknown;
}

export interface LowBalanceFormatSettings extends FormatSettings {
  /** PUBLIC_URL, so the recharge hint names a full address; omitted, the hint shows the path. */
  publicUrl?: string;
}

/** No format (undefined, null, or a stored "" checked at run time): the payload itself. */
export function formatEmail(format: WebhookFormat | null | undefined, payload: InboundEmailPayload, settings: FormatSettings = {}): unknown {
  // A custom webhook saved without a template (validation prevents it) still delivers the mail.
  if (format === 'custom') return hasTemplate(settings) ? renderTemplate(settings.template, payload) : payload;
  if (format === 'pagerduty') return pagerDutyEmail(payload, option(settings, 'routing_key'));
  if (!isWebhookFormat(format)) return payload;
  return chatBody(format, emailMessage(payload), settings);
}

export function lowBalancePayload(event: LowBalanceEvent): LowBalancePayload {
  return { type: 'low_balance', wallet: event.wallet, threshold: event.threshold, token_hash: event.token_hash, timestamp: event.timestamp };
}

export function formatLowBalance(
  format: WebhookFormat | null | undefined,
  event: LowBalanceEvent,
  settings: LowBalanceFormatSettings = {},
): unknown {
  const raw = lowBalancePayload(event);
  if (format === 'custom') return hasTemplate(settings) ? renderTemplate(settings.template, raw) : raw;
  if (format === 'pagerduty') return pagerDutyLowBalance(event, option(settings, 'routing_key'), settings.publicUrl);
  if (!isWebhookFormat(format)) return raw;
  return chatBody(format, lowBalanceMessage(event, settings.publicUrl), settings);
}

function chatBody(format: 'slack' | 'discord' | 'teams' | 'telegram', message: ChatMessage, settings: FormatSettings): unknown {
  switch (format) {
    case 'slack':
      return slackBody(message);
    case 'discord':
      return discordBody(message);
    case 'teams':
      return teamsBody(message);
    case 'telegram':
      return telegramBody(message, option(settings, 'chat_id'));
  }
}

const hasTemplate = (settings: FormatSettings): boolean => settings.template !== undefined && settings.template !== null;

/** A missing required option yields "" so the platform refuses it and the delivery is logged as failed. */
const option = (settings: FormatSettings, key: string): string => settings.options?.[key] ?? '';
