import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

// Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, not the
// message; `host` and `content-length` are ours to compute, and a forged
// value would let a caller smuggle a second request or reach another vhost.
// `expect` is refused by undici itself.
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const UNSAFE_VALUE = /[\r\n\0]/;

/**
 * Caller headers as sent: names lower-cased (later duplicates win), dropped
 * ones removed, and names/values that are not valid HTTP skipped rather than
 * handed to undici, which would throw mid-delivery.
 */
export function sanitizeHeaders(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(headers ?? {})) {
    const name = rawName.toLowerCase();
    if (DROPPED.has(name) || name.startsWith('proxy-')) continue;
    if (!TOKEN.test(name) || typeof value !== 'string' || UNSAFE_VALUE.test(value)) continue;
    out[name] = value;
  }
  return out;
}

/** undici's header object, with repeated headers joined as HTTP allows. */
export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Read at most `cap` bytes, then destroy the stream: a huge or endless body
 * costs us `cap` bytes of memory and no more.
 */
export async function readCapped(stream: Readable, cap: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    if (size + buffer.length > cap) {
      chunks.push(buffer.subarray(0, cap - size));
      size = cap;
      truncated = true;
      break;
    }
    chunks.push(buffer);
    size += buffer.length;
  }
  if (truncated) stream.destroy();
  return { body: Buffer.concat(chunks, size), truncated };
}
