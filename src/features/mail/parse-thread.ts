import { JobThread } from '../../lib/job-thread.js';
import type { PoolKey } from '../../lib/fair-limiter.js';
import { MessageParseError } from './mime-parse.js';
import type { ParsedAttachment, ParsedMessage, ParseOptions } from './mime-parse.js';
import type { SpoolSource } from './spool.js';

/** A message to parse, as it crosses to the parse thread: where its bytes are, and what to keep. */
export interface ParseJob {
  readonly source: SpoolSource;
  readonly options: ParseOptions;
}

/** What the thread made of it: the message, or why it is not one (MessageParseError's words). */
export type ParseOutcome =
  { readonly ok: true; readonly parsed: ParsedMessage } | { readonly ok: false; readonly reason: string };

/** Structured cloning makes a Buffer a plain Uint8Array: a Buffer again over the same bytes, no copy. */
const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Inbound messages parsed on a thread of their own (parse-worker.ts), started with the first message: decoding a
 * large text part holds that thread, never the event loop that answers every wallet's calls. Callers take their turns
 * in the mailParsing pool first (inbound.service.ts), so at most its slots of messages are parsed at once.
 */
export class MessageParseThread {
  private readonly thread = new JobThread<ParseJob, ParseOutcome>({
    worker: './parse-worker',
    from: import.meta.url,
    name: 'message parsing',
    // Not a MessageParseError: a message cut off by the stop is not refused for good, its sender tries again.
    closedError: () => new Error('the instance is stopping'),
  });

  /** The message; a MessageParseError when it is not one, as parseMessage rejects. */
  async parse(key: PoolKey, job: ParseJob): Promise<ParsedMessage> {
    const outcome = await this.thread.run(key, job);
    if (!outcome.ok) throw new MessageParseError(outcome.reason);
    const attachments = outcome.parsed.attachments.map((attachment): ParsedAttachment =>
      attachment.content === undefined ? attachment : { ...attachment, content: asBuffer(attachment.content) },
    );
    return { ...outcome.parsed, attachments };
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
