/**
 * The web console at /console/: static files only, never metered (it talks to the public API like any client, and
 * those calls are metered as always). `GET /` sends browsers there. Strict CSP: the console's own script and style,
 * calls to this origin only; no upgrade-insecure-requests, so it works over plain HTTP on any host.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../errors.js';
import type { ConsoleFile, ConsoleFiles } from './console-files.js';

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Hashed names change with their content, so a browser may keep them for a year; the page itself is always revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function send(request: FastifyRequest, reply: FastifyReply, file: ConsoleFile, cacheControl: string) {
  const accepted = request.headers['accept-encoding'] ?? '';
  const [encoding, body] = accepted.includes('br')
    ? ['br', file.brotli]
    : accepted.includes('gzip')
      ? ['gzip', file.gzip]
      : [undefined, file.identity];
  if (encoding !== undefined) reply.header('content-encoding', encoding);
  return reply
    .header('vary', 'accept-encoding')
    .header('cache-control', cacheControl)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', CONSOLE_CSP)
    .type(file.type)
    .send(body);
}

/** What the console needs to know of this instance before a paid call would tell it (GET /console/service.json). */
export interface ConsoleServiceFacts {
  /** E-mail can reach this instance: mailbox webhooks can be created. */
  readonly receivesMail: boolean;
  /** The `amount`s GET /recharge gives a payment link for (none without Stripe: it answers 501). */
  readonly rechargeAmounts: readonly string[];
}

export function registerConsole(
  app: FastifyInstance,
  files: ConsoleFiles | undefined,
  facts: ConsoleServiceFacts,
): void {
  const factsJson = JSON.stringify(facts);
  // Free and unmetered, as the console's files: the form refuses a mailbox webhook here instead of paying for the 400,
  // and the wallet page offers only the recharges that can be paid.
  app.get('/console/service.json', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .type('application/json; charset=utf-8')
      .send(factsJson),
  );
  // Relative, so it is right behind a proxy that mounts the service under a path.
  app.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect('console/', 302));
  app.get('/console/', { schema: { hide: true } }, async (request, reply) => {
    if (files === undefined) throw errors.notFound();
    return send(request, reply, files.index, 'no-cache');
  });
  app.get<{ Params: { name: string } }>('/console/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const file = files?.assets.get(request.params.name);
    if (file === undefined) throw errors.notFound();
    return send(request, reply, file, IMMUTABLE);
  });
}
