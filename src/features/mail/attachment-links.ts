import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../../store/store.js';

/**
 * Signed, expiring download URLs of stored attachments:
 * `$PUBLIC_URL/mail/attachments/<id>?expires=<unix seconds>&signature=<base64url HMAC-SHA256>`,
 * the HMAC taken over `<id>.<expires>` with a random key every instance shares (service_secrets).
 */

export const DOWNLOAD_PATH = '/mail/attachments';
const KEY_NAME = 'attachment-url-hmac';

export function attachmentSignature(key: Buffer, id: string, expiresSeconds: number): string {
  return createHmac('sha256', key).update(`${id}.${expiresSeconds}`).digest('base64url');
}

export function attachmentUrl(publicUrl: string, key: Buffer, id: string, expiresSeconds: number): string {
  return `${publicUrl}${DOWNLOAD_PATH}/${id}?expires=${expiresSeconds}&signature=${attachmentSignature(key, id, expiresSeconds)}`;
}

/** A download link as requested: the attachment's id and the `expires` and `signature` of its query, unchecked. */
export interface AttachmentLink {
  readonly id: string;
  readonly expires: string;
  readonly signature: string;
}

/** True when the signature is ours and the link has not expired at `nowMs`. */
export function verifyAttachmentLink(key: Buffer, { id, expires, signature }: AttachmentLink, nowMs: number): boolean {
  if (!/^\d{1,12}$/.test(expires)) return false;
  const expected = Buffer.from(attachmentSignature(key, id, Number(expires)));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  return nowMs < Number(expires) * 1000;
}

/**
 * The shared HMAC key, created by whichever instance needs it first (INSERT … ON CONFLICT DO NOTHING,
 * then read back, so concurrent first uses agree) and cached for this process.
 */
export class AttachmentKey {
  private key: Promise<Buffer> | undefined;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  get(): Promise<Buffer> {
    this.key ??= this.load().catch((error: unknown) => {
      this.key = undefined; // retried on the next use
      throw error;
    });
    return this.key;
  }

  private async load(): Promise<Buffer> {
    const read = () =>
      this.store.read.get<{ value: string }>('SELECT value FROM service_secrets WHERE name = $1', [KEY_NAME]);
    let row = await read();
    if (row === undefined) {
      await this.store.writeOne(
        'INSERT INTO service_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING',
        [KEY_NAME, randomBytes(32).toString('base64'), this.now()],
      );
      row = await read();
    }
    if (row === undefined) throw new Error('attachment URL key missing after insert');
    return Buffer.from(row.value, 'base64');
  }
}
