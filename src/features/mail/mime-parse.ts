import type { Readable } from 'node:stream';
import { MailParser } from 'mailparser';
import type { AddressObject, AttachmentStream, EmailAddress as ParserAddress, MessageText } from 'mailparser';
import type { EmailAddress } from '../../formats/index.js';
import { PAYLOAD_MAX_BYTES } from './mail-limits.js';

/**
 * One message read by mailparser's streaming parser, reduced to what a payload needs. Attachment
 * contents are read as they stream by and kept only when asked and not larger than the limit;
 * otherwise only their size is counted. Decoding (encoded words, charsets, transfer encodings) and
 * the tolerance for malformed MIME are mailparser's.
 */
export interface ParsedAttachment {
  readonly filename?: string;
  readonly contentType: string;
  readonly size: number;
  readonly contentId?: string;
  /** Present when kept: asked for, and at most the size limit. */
  readonly content?: Buffer;
}

export interface ParsedMessage {
  /** Header lines in order: lowercase name, value unfolded but not decoded. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly messageId?: string;
  readonly subject: string;
  readonly from: EmailAddress[];
  readonly to: EmailAddress[];
  readonly cc: EmailAddress[];
  readonly text?: string;
  readonly html?: string;
  readonly attachments: ParsedAttachment[];
}

export interface ParseOptions {
  /** Keep attachment bytes (some recipient wants them). */
  readonly keepAttachments: boolean;
  /** Attachments larger than this are never kept. */
  readonly maxAttachmentBytes: number;
}

export class MessageParseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MessageParseError';
  }
}

/** Gives up on a message that takes longer than this: far beyond a normal parse, it only frees a slot held by a stalled one. */
const PARSE_TIMEOUT_MS = 60_000;

const PARSER_OPTIONS = {
  // Text from HTML is made by the formats feature's converter when needed; HTML from text never.
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
  checksumAlgo: false,
} as const;

export function parseMessage(source: Readable, options: ParseOptions): Promise<ParsedMessage> {
  return new Promise<ParsedMessage>((resolve, reject) => {
    const parser = new MailParser(PARSER_OPTIONS);
    const attachments: ParsedAttachment[] = [];
    let text: MessageText | undefined;
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      source.unpipe(parser);
      source.destroy();
      parser.destroy();
      reject(
        error instanceof MessageParseError
          ? error
          : new MessageParseError(error instanceof Error ? error.message : String(error), { cause: error }),
      );
    };
    const timer = setTimeout(() => fail(new MessageParseError('parsing took too long')), PARSE_TIMEOUT_MS);

    const readAttachment = (attachment: AttachmentStream, next: () => void): void => {
      const chunks: Buffer[] = [];
      let size = 0;
      let keep = options.keepAttachments;
      attachment.content.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (!keep) return;
        if (size > options.maxAttachmentBytes) {
          keep = false;
          chunks.length = 0;
          return;
        }
        chunks.push(chunk);
      });
      attachment.content.on('error', fail);
      attachment.content.on('end', () => {
        attachments.push({
          ...(attachment.filename ? { filename: attachment.filename } : {}),
          contentType: attachment.contentType || 'application/octet-stream',
          size,
          ...(attachment.cid ? { contentId: attachment.cid } : {}),
          ...(keep ? { content: Buffer.concat(chunks, size) } : {}),
        });
        attachment.release?.();
        next();
      });
    };

    let reading = false;
    const read = (): void => {
      reading = true;
      for (;;) {
        if (settled) return;
        const data = parser.read();
        if (data === null) {
          reading = false;
          return;
        }
        if (data.type === 'text') {
          text = data;
          continue;
        }
        readAttachment(data, read);
        return;
      }
    };

    parser.on('readable', () => {
      if (!reading) read();
    });
    parser.on('error', fail);
    source.on('error', fail);
    parser.on('end', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        headers: headerPairs(parser.headerLines || []),
        ...(parser.messageId ? { messageId: parser.messageId } : {}),
        subject: parser.subject ?? '',
        from: addresses(parser.from),
        to: addresses(parser.to),
        cc: addresses(parser.cc),
        ...(typeof text?.text === 'string' ? { text: text.text } : {}),
        ...(typeof text?.html === 'string' ? { html: text.html } : {}),
        attachments,
      });
    });
    source.pipe(parser);
  });
}

/** `Name: value` lines with their folding removed (RFC 5322 2.2.3); the value stays as sent. */
function headerPairs(lines: ReadonlyArray<{ key: string; line: string }>): Array<readonly [string, string]> {
  return lines.map(({ key, line }) => {
    const colon = line.indexOf(':');
    const value = colon < 0 ? '' : line.slice(colon + 1);
    return [key, value.replace(/\r?\n(?=[ \t])/g, '').trim()] as const;
  });
}

/** Every mailbox of one or more address headers, groups flattened; entries without an address dropped. */
function addresses(header: AddressObject | AddressObject[] | undefined): EmailAddress[] {
  if (header === undefined) return [];
  const out: EmailAddress[] = [];
  const visit = (entry: ParserAddress): void => {
    if (entry.group !== undefined) {
      entry.group.forEach(visit);
      return;
    }
    const email = (entry.address ?? '').trim();
    if (email === '') return;
    const name = (entry.name ?? '').trim();
    out.push(name === '' ? { email } : { email, name });
  };
  for (const object of Array.isArray(header) ? header : [header]) object.value.forEach(visit);
  return out;
}

/**
 * A decoded text part kept to what a payload can use: no payload carries more than PAYLOAD_MAX_BYTES of JSON, so
 * `text` and `html` past that many characters are never delivered. One more character is kept, so a part longer than
 * any payload still reads as longer (the 1 MiB rule then cuts it exactly as it would the whole part), and the service
 * never handles the rest: a 28 MB text part is not trimmed, measured and copied through every mailbox's plan.
 */
export function keptForPayloads(parsed: ParsedMessage): ParsedMessage {
  const keep = PAYLOAD_MAX_BYTES + 1;
  const cut = (text: string): string => {
    if (text.length <= keep) return text;
    const last = text.charCodeAt(keep - 1);
    // Never half of a surrogate pair: the pair goes whole or not at all.
    return text.slice(0, last >= 0xd800 && last <= 0xdbff ? keep - 1 : keep);
  };
  return {
    ...parsed,
    ...(parsed.text === undefined ? {} : { text: cut(parsed.text) }),
    ...(parsed.html === undefined ? {} : { html: cut(parsed.html) }),
  };
}
