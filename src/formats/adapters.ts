import { LIMITS, discordBody, slackBody, teamsBody, telegramBody } from './chat.js';
import { emailMessage, lowBalanceMessage, type ChatMessage } from './message.js';
import { pagerDutyEmail, pagerDutyLowBalance } from './pagerduty.js';
import {
  isWebhookFormat,
  type InboundEmailPayload,
  type LowBalanceEvent,
  type LowBalancePayload,
  type WebhookFormat,
} from './payloads.js';
import { renderTemplate } from './template-engine.js';
import type { RenderOptions } from './template-engine.js';

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
  /** Budget of a rendered custom template, UTF-8 bytes of its JSON (default 1 MiB, RENDER_MAX_BYTES). */
  maxBytes?: number;
}

export interface LowBalanceFormatSettings extends FormatSettings {
  /** PUBLIC_URL, so the recharge hint names a full address; omitted, the hint shows the path. */
  publicUrl?: string;
}

/** No format (undefined, null, or a stored "" checked at run time): the payload itself. */
export function formatEmail(
  format: WebhookFormat | null | undefined,
  payload: InboundEmailPayload,
  settings: FormatSettings = {},
): unknown {
  // A custom webhook saved without a template (validation prevents it) still delivers the mail.
  if (format === 'custom') {
    // Values cut to fit the budget: `{{truncated}}` says so, as the payload's flag does for the 1 MiB rule.
    const whenCut = (data: unknown): unknown => ({ ...(data as InboundEmailPayload), truncated: true });
    return hasTemplate(settings)
      ? renderTemplate(settings.template, payload, renderOptions(settings, whenCut))
      : payload;
  }
  if (format === 'pagerduty') return pagerDutyEmail(payload, option(settings, 'routing_key'));
  if (!isWebhookFormat(format)) return payload;
  // Chat bodies are a few KB at most: only that much of the mail text is prepared.
  return chatBody(format, emailMessage(payload, LIMITS.telegramText), settings);
}

export function lowBalancePayload(event: LowBalanceEvent): LowBalancePayload {
  return {
    type: 'low_balance',
    wallet: event.wallet,
    threshold: event.threshold,
    token_hash: event.token_hash,
    timestamp: event.timestamp,
  };
}

export function formatLowBalance(
  format: WebhookFormat | null | undefined,
  event: LowBalanceEvent,
  settings: LowBalanceFormatSettings = {},
): unknown {
  const raw = lowBalancePayload(event);
  if (format === 'custom')
    return hasTemplate(settings) ? renderTemplate(settings.template, raw, renderOptions(settings)) : raw;
  if (format === 'pagerduty') return pagerDutyLowBalance(event, option(settings, 'routing_key'), settings.publicUrl);
  if (!isWebhookFormat(format)) return raw;
  return chatBody(format, lowBalanceMessage(event, settings.publicUrl), settings);
}

function chatBody(
  format: 'slack' | 'discord' | 'teams' | 'telegram',
  message: ChatMessage,
  settings: FormatSettings,
): unknown {
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

const hasTemplate = (settings: FormatSettings): boolean =>
  settings.template !== undefined && settings.template !== null;

const renderOptions = (settings: FormatSettings, whenCut?: RenderOptions['whenCut']): RenderOptions => ({
  ...(settings.maxBytes === undefined ? {} : { maxBytes: settings.maxBytes }),
  ...(whenCut === undefined ? {} : { whenCut }),
});

/** A missing required option yields "" so the platform refuses it and the delivery is logged as failed. */
const option = (settings: FormatSettings, key: string): string => settings.options?.[key] ?? '';
