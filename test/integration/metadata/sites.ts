import { afterAll, beforeAll } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../helpers/app.js';
import { startHttpsReceiver } from '../../helpers/https-receiver.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import type { HttpsReceiver, ReceivedRequest, ScriptedResponse } from '../../helpers/https-receiver.js';
import {
  BARE_PAGE,
  hugePage,
  PDF,
  PNG_3x2,
  RICH_PAGE,
  ROBOTS_TXT,
  TEXT_DOCUMENT,
} from '../../fixtures/metadata-pages.js';

export const HTML = 'text/html; charset=utf-8';

/** An ISO-BMFF box: 32-bit size, four-letter type, payload. */
const box = (type: string, ...payload: Buffer[]): Buffer => {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
};
const u32 = (...values: number[]): Buffer =>
  Buffer.concat(
    values.map((value) => Buffer.from([value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255])),
  );

/** The header of an AVIF image of 640×360: ftyp, then meta → iprp → ipco → ispe (the image's spatial extent). */
export const AVIF_640x360 = Buffer.concat([
  box('ftyp', Buffer.from('avif', 'latin1'), u32(0), Buffer.from('avifmif1', 'latin1')),
  box('meta', u32(0), box('iprp', box('ipco', box('ispe', u32(0, 640, 360))))),
]);
export const SVG_120x80 =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 12 8"><rect width="12" height="8"/></svg>';
export const HUGE_BYTES = 3 * 1024 * 1024;

/** The routes both test sites serve; `other` is the origin of the other site (for cross-site redirects). */
function route(request: ReceivedRequest, other: () => string): ScriptedResponse {
  const path = request.path.split('?')[0] ?? '';
  const html = (body: string | Buffer, status = 200): ScriptedResponse => ({
    status,
    headers: { 'content-type': HTML },
    body,
  });
  switch (path) {
    case '/robots.txt':
      return { headers: { 'content-type': 'text/plain' }, body: ROBOTS_TXT };
    case '/rich':
      return {
        headers: { 'content-type': HTML, server: 'test-site', 'last-modified': 'Mon, 01 Jun 2026 10:00:00 GMT' },
        body: RICH_PAGE,
      };
    case '/bare':
      return html(BARE_PAGE);
    case '/no-content-type':
      return { body: BARE_PAGE };
    case '/private/page':
      return html('<html><head><title>Private</title></head><body>hidden</body></html>');
    case '/redirect/1':
      return { status: 301, headers: { location: '/redirect/2' } };
    case '/redirect/2':
      return { status: 302, headers: { location: `${other()}/rich` } };
    case '/to-private':
      return { status: 302, headers: { location: 'http://10.1.2.3/admin' } };
    case '/loop':
      return { status: 302, headers: { location: '/loop' } };
    case '/huge':
      return html(hugePage(HUGE_BYTES));
    case '/slow':
      return { ...html('<title>slow</title>'), delayMs: 5_000 };
    case '/missing':
      return html('<title>Not here</title>', 404);
    case '/broken':
      return html('<title>Oops</title>', 500);
    case '/image.png':
      return { headers: { 'content-type': 'image/png' }, body: PNG_3x2 };
    case '/image.avif':
      return { headers: { 'content-type': 'image/avif' }, body: AVIF_640x360 };
    case '/image.svg':
      return { headers: { 'content-type': 'image/svg+xml' }, body: SVG_120x80 };
    case '/files/report.pdf':
      return { headers: { 'content-type': 'application/pdf' }, body: PDF };
    case '/notes.txt':
      return { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: TEXT_DOCUMENT };
    case '/data.json':
      return {
        headers: { 'content-type': 'application/json', 'content-disposition': 'attachment; filename="export.json"' },
        body: '{"a":1}',
      };
    default:
      return html('<title>Not found</title>', 404);
  }
}

export interface Sites {
  https: HttpsReceiver;
  http: HttpsReceiver;
}

/**
 * An HTTPS site and a plain HTTP site on 127.0.0.1, and the environment that lets the app reach them:
 * loopback allowed (OUTBOUND_ALLOW_CIDRS) and the HTTPS site's CA trusted (OUTBOUND_CA_FILE).
 * Call at describe level, before the app's hooks.
 */
export function useSites(): { env: Record<string, string>; sites: () => Sites } {
  // The HTTPS site is the shared outbound fixture's receiver (its CA in OUTBOUND_CA_FILE); the HTTP one is ours.
  const outbound = useOutboundFixture();
  let sites: Sites | undefined;
  beforeAll(async () => {
    const https = outbound.receiver();
    const http = await startHttpsReceiver({ protocol: 'http' });
    https.respondWith((request) => route(request, () => http.origin));
    http.respondWith((request) => route(request, () => https.origin));
    sites = { https, http };
  });
  afterAll(async () => {
    await sites?.http.close();
  });
  return {
    env: outbound.env,
    sites: () => {
      if (sites === undefined) throw new Error('sites not started');
      return sites;
    },
  };
}

/** POST /url-to-metadata for one wallet. */
export function analyze(t: TestApp, token: string, body: unknown): Promise<LightMyRequestResponse> {
  return t.inject({
    method: 'POST',
    url: '/url-to-metadata',
    headers: { 'x-token': token, 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Requests a site received for `path` (query ignored). */
export function hits(site: HttpsReceiver, path: string): number {
  return site.requests.filter((request) => request.path.split('?')[0] === path).length;
}
