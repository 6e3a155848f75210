import type { ChatMessage } from './message.js';
import { truncate } from './text.js';

/**
 * Chat bodies (docs/contract.md#formats). Limits come from the contract and the platforms;
 * title and line caps are ours: they keep a huge subject from eating a whole-message
 * budget, so the body always keeps most of the room.
 */
export const LIMITS = {
  title: 256,
  line: 512,
  slackBody: 3000,
  /** Not in the contract: Teams refuses payloads over about 28 KB and the body appears twice. */
  teamsBody: 3000,
  discordContent: 2000,
  telegramText: 4096,
} as const;

export interface SlackBody {
  text: string;
}

export function slackBody(message: ChatMessage): SlackBody {
  const escape = { escape: true };
  const head = `*${truncate(message.title, LIMITS.title, escape)}*\n${truncate(message.line, LIMITS.line, escape)}`;
  return { text: withBody(head, truncate(message.body, LIMITS.slackBody, escape)) };
}

export interface DiscordBody {
  content: string;
}

/**
 * Discord pings on `@everyone`, `@here` and `<@…>` (a user or a role) in `content`, and anyone may send mail to a
 * mailbox: their `@` becomes a look-alike (`＠`, U+FF20) of the same length, so the limits and cuts are unchanged.
 */
const DISCORD_MENTION = /@(?=everyone|here)|(?<=<)@/gi;
const defuseMentions = (text: string): string => text.replace(DISCORD_MENTION, '\uFF20');

export function discordBody(message: ChatMessage): DiscordBody {
  const title = truncate(defuseMentions(message.title), LIMITS.title);
  const head = `**${title}**\n${truncate(defuseMentions(message.line), LIMITS.line)}`;
  return { content: withBody(head, truncate(defuseMentions(message.body), LIMITS.discordContent - head.length - 1)) };
}

export interface TelegramBody {
  chat_id: string;
  text: string;
  parse_mode: 'HTML';
}

export function telegramBody(message: ChatMessage, chatId: string): TelegramBody {
  const escape = { escape: true };
  const head = `<b>${truncate(message.title, LIMITS.title, escape)}</b>\n${truncate(message.line, LIMITS.line, escape)}`;
  const body = truncate(message.body, LIMITS.telegramText - head.length - 1, escape);
  return { chat_id: chatId, text: withBody(head, body), parse_mode: 'HTML' };
}

interface TextBlock {
  type: 'TextBlock';
  text: string;
  wrap: true;
  weight?: 'Bolder';
  size?: 'Medium';
  isSubtle?: true;
  spacing?: 'None';
}

export interface TeamsBody {
  type: 'message';
  text: string;
  attachments: [
    {
      contentType: 'application/vnd.microsoft.card.adaptive';
      content: { type: 'AdaptiveCard'; version: '1.4'; body: TextBlock[] };
    },
  ];
}

/** `text` serves the legacy connectors; the Adaptive Card serves Workflows. */
export function teamsBody(message: ChatMessage): TeamsBody {
  const title = truncate(message.title, LIMITS.title);
  const line = truncate(message.line, LIMITS.line);
  const body = truncate(message.body, LIMITS.teamsBody);
  const blocks: TextBlock[] = [
    { type: 'TextBlock', text: title, wrap: true, weight: 'Bolder', size: 'Medium' },
    { type: 'TextBlock', text: line, wrap: true, isSubtle: true, spacing: 'None' },
  ];
  if (body !== '') blocks.push({ type: 'TextBlock', text: body, wrap: true });
  return {
    type: 'message',
    text: withBody(`**${title}**\n${line}`, body),
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        content: { type: 'AdaptiveCard', version: '1.4', body: blocks },
      },
    ],
  };
}

/** An empty body leaves no dangling newline after the sender line. */
const withBody = (head: string, body: string): string => (body === '' ? head : `${head}\n${body}`);
