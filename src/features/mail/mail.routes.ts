import type { Writable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { secretGate } from '../../http/guess-throttle.js';
import { responses } from '../../http/schemas.js';
import { RateBuckets } from '../../lib/rate-buckets.js';
import { AttachmentKey, DOWNLOAD_PATH, verifyAttachmentLink } from './attachment-links.js';
import type { InboundMail } from './inbound.service.js';
import { readAttachment } from './mail.queries.js';
import { mailboxOf } from './recipients.js';
import { Spool, SpoolOverflow } from './spool.js';

/**
 * HTTP side of inbound mail: attachment downloads (signed, expiring URLs under PUBLIC_URL), and
 * POST /inbound/raw for relays (registered only when INBOUND_SECRET is set).
 */
export const mailRoutes: FastifyPluginAsyncTypebox<{ deps: Deps; inbound?: InboundMail }> = async (
  app,
  { deps, inbound },
) => {
  await app.register(downloadRoute, { deps });
  if (deps.config.inboundSecret === undefined) return;
  // The composition root builds the pipeline whenever INBOUND_SECRET is set: a missing one is a wiring mistake.
  if (inbound === undefined) throw new Error('INBOUND_SECRET is set but no inbound-mail pipeline was given');
  await app.register(relayRoute, { deps, secret: deps.config.inboundSecret, inbound });
};

/**
 * Downloads of one attachment: its link is a capability anyone holding it can use, free, for an hour, and each
 * download reads and sends up to 20 MB. A receiver fetches it once or retries a few times: 10 at once, then one
 * every 6 minutes (an hour earns 10 back), per instance; past that 429 with retry-after.
 */
export const DOWNLOADS_PER_ATTACHMENT = { perMinute: 1 / 6, burst: 10, maxKeys: 100_000 } as const;

const DownloadParams = Type.Object({ attachmentId: Type.String() });
// Loose on purpose: a link that is malformed, forged or expired is simply not found.
const DownloadQuery = Type.Object({ expires: Type.Optional(Type.String()), signature: Type.Optional(Type.String()) });
const binary = {
  description: 'The attachment bytes',
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
};

const downloadRoute: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const key = new AttachmentKey(deps.store, () => deps.clock.now());
  const downloads = new RateBuckets<string>(deps.clock, DOWNLOADS_PER_ATTACHMENT);
  app.get(
    `${DOWNLOAD_PATH}/:attachmentId`,
    {
      schema: {
        operationId: 'mailAttachmentGet',
        summary: 'Download an inbound e-mail attachment (signed link from a delivery payload, valid 1 hour)',
        tags: ['mail'],
        params: DownloadParams,
        querystring: DownloadQuery,
        response: { ...responses(binary, 404, 429) },
        example: {
          params: { attachmentId: 'att_01JX4Q8Z6T3N5R7V' },
          query: { expires: '1780315200', signature: 'k3Jd9sQ2vX7mN1pL4tR8wY6zB0cF5hG2' },
          response: '%PDF-1.7 …',
        },
      },
    },
    async (request, reply) => {
      const { attachmentId } = request.params;
      const { expires = '', signature = '' } = request.query;
      const now = deps.clock.now();
      if (!verifyAttachmentLink(await key.get(), { id: attachmentId, expires, signature }, now))
        throw errors.notFound();
      // Counted before the bytes are read: a link passed around cannot make the service read and send 20 MB at will.
      const wait = downloads.take(attachmentId);
      if (wait > 0) throw errors.tooManyRequests(wait / 1000);
      const attachment = await readAttachment(deps.store.read, attachmentId);
      if (attachment === undefined || attachment.expiresAt <= now) throw errors.notFound();
      return reply
        .code(200)
        .headers({
          'content-type': safeContentType(attachment.contentType),
          'content-disposition': contentDisposition(attachment.filename),
          // The bytes are whatever a stranger mailed: never let a browser run them on our origin.
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
          'cache-control': 'private, no-store',
        })
        .send(attachment.content);
    },
  );
};

const RelayQuery = Type.Object({
  recipient: Type.String({ maxLength: 320, description: 'The mailbox address the message is for (`r_…@MAIL_DOMAIN`)' }),
  provider: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9._-]{1,40}$',
      description: 'Names the relay in the payload’s `provider` (default `relay`)',
      'x-error': 'must be 1 to 40 letters, digits, ".", "_" or "-"',
    }),
  ),
});
const RelayHeaders = Type.Object({
  'x-inbound-secret': Type.String({ description: 'INBOUND_SECRET' }),
  'x-inbound-provider': Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9._-]{1,40}$', 'x-error': 'must be 1 to 40 letters, digits, ".", "_" or "-"' }),
  ),
});
const RelayAccepted = Type.Object({ accepted: Type.Literal(true), externalMessageId: Type.String() });

/** `inbound`: the process's one inbound pipeline, shared with the SMTP listener (its owner closes it). */
const relayRoute: FastifyPluginAsyncTypebox<{ deps: Deps; secret: string; inbound: InboundMail }> = async (
  app,
  { deps, secret, inbound },
) => {
  // Checked before the body is read; wrong secrets are throttled per client (docs/limits.md).
  const isInboundSecret = secretGate(deps.clock, 'inbound secret', secret);
  app.addHook('onRequest', async (request) => {
    const given = request.headers['x-inbound-secret'];
    if (!isInboundSecret(request, typeof given === 'string' ? given : undefined)) throw errors.forbidden();
  });

  // Any content type: the body is the raw message, spooled as it arrives (never held whole in memory).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', async (_request: unknown, payload: NodeJS.ReadableStream) => {
    const spool = inbound.newSpool();
    try {
      await spoolBody(payload, spool.writable({ failWhenOversized: true }));
    } catch (error) {
      await spool.dispose();
      if (error instanceof SpoolOverflow) throw errors.payloadTooLarge();
      throw error;
    }
    return spool;
  });

  // A request refused after its body was spooled (validation, abort) must not leave the spool behind.
  const disposeBody = async (request: { body: unknown }) => {
    if (request.body instanceof Spool) await request.body.dispose();
  };
  app.addHook('onResponse', disposeBody);
  app.addHook('onRequestAbort', disposeBody);

  app.post(
    '/inbound/raw',
    {
      bodyLimit: inbound.maxMessageBytes,
      schema: {
        operationId: 'mailInject',
        'x-cost': '2, or 5 with attachments, charged to the mailbox’s wallet',
        summary: 'Inject a raw RFC 5322 message for a mailbox (relay ingestion; enabled by INBOUND_SECRET)',
        description:
          'The body is the raw message (any content type, e.g. `message/rfc822`), at most 30 MiB. It is processed exactly as mail received over SMTP: charged 2 or 5 credits to the mailbox’s wallet, then delivered to its webhook. 402 means the wallet cannot pay: retry later.',
        tags: ['mail'],
        querystring: RelayQuery,
        headers: RelayHeaders,
        response: {
          202: RelayAccepted,
          ...withoutOk(responses(RelayAccepted, 400, 402, 404, 413)),
          403: { description: 'Forbidden', content: { 'text/plain': { schema: { type: 'string' } } } },
        },
        example: {
          query: { recipient: 'r_7f3k9q2m@mail.example.com' },
          response: { accepted: true, externalMessageId: '<CAF=abc123@mail.example.org>' },
          errors: { 404: errors.webhookNotFound().body },
        },
      },
    },
    async (request, reply) => {
      const spool = request.body as Spool | undefined;
      if (spool === undefined || spool.size === 0) {
        await spool?.dispose();
        throw errors.badRequest('Invalid body: must be a raw RFC 5322 message');
      }
      try {
        const mailbox = mailboxOf(request.query.recipient, deps.config.mailDomain);
        if (mailbox === null)
          throw errors.invalidField('recipient', `must be a mailbox address r_…@${deps.config.mailDomain}`);
        const check = await inbound.checkRecipient(request.query.recipient);
        if (check.kind === 'unknown') throw errors.webhookNotFound();
        if (check.kind === 'insufficient') throw errors.insufficientCredits();
        const provider = request.query.provider ?? request.headers['x-inbound-provider'] ?? 'relay';
        const outcome = await inbound.accept(spool, { mailFrom: '', mailboxes: [mailbox], provider });
        switch (outcome.kind) {
          case 'accepted':
            reply.code(202);
            return { accepted: true as const, externalMessageId: outcome.externalMessageId };
          case 'insufficient':
            throw errors.insufficientCredits();
          case 'no-mailbox':
            throw errors.webhookNotFound();
          case 'oversized':
            throw errors.payloadTooLarge();
          case 'unparsable':
            throw errors.badRequest('Invalid body: not a parsable RFC 5322 message');
        }
      } finally {
        await spool.dispose();
      }
    },
  );
};

function withoutOk(all: Record<number, unknown>): Record<number, unknown> {
  const { 200: _ok, ...rest } = all;
  return rest;
}

/** A stored type is sender-supplied: only `type/subtype` tokens pass, anything else is octet-stream. */
function safeContentType(value: string): string {
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i.test(value) ? value.toLowerCase() : 'application/octet-stream';
}

/** `attachment` with an ASCII fallback name and the exact one in RFC 5987 form. */
function contentDisposition(filename: string | null): string {
  if (filename === null || filename === '') return 'attachment';
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Pipes the request body into the spool. Unlike `pipeline`, a spool that refuses (oversized) leaves the request
 * stream alone instead of destroying it: on Node 24 a destroyed request is an aborted one, and its 413 is never sent.
 */
function spoolBody(payload: NodeJS.ReadableStream, writable: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let ended = false;
    const fail = (error: Error) => {
      payload.unpipe(writable);
      reject(error);
    };
    writable.once('error', fail);
    payload.once('error', fail);
    payload.once('end', () => (ended = true));
    // A client gone before the end of its body: nothing more will come.
    payload.once('close', () => ended || fail(new Error('request body aborted')));
    writable.once('finish', () => resolve());
    payload.pipe(writable);
  });
}
