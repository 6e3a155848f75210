/**
 * A real HTTPS receiver on 127.0.0.1 that the app is allowed to call: loopback allowed through
 * OUTBOUND_ALLOW_CIDRS, the receiver's CA trusted through a PEM file for OUTBOUND_CA_FILE.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createTestCertificates, startHttpsReceiver } from './https-receiver.js';
import type { HttpsReceiver, ReceivedRequest } from './https-receiver.js';

export interface OutboundFixture {
  /** Env for startTestApp: loopback allowed, the receiver's CA trusted. */
  readonly env: Record<string, string>;
  receiver(): HttpsReceiver;
  /** https://127.0.0.1:<port><path> */
  url(path: string): string;
  /** Requests received on `path` (exact, without query). */
  requestsTo(path: string): ReceivedRequest[];
}

/** Call at describe level: certificates and the CA file exist at once (apps read them at start), the receiver from beforeAll. */
export function useOutboundFixture(): OutboundFixture {
  const certificates = createTestCertificates();
  const dir = mkdtempSync(join(tmpdir(), 'coinop-ca-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, certificates.caPem);
  let receiver: HttpsReceiver | undefined;
  beforeAll(async () => {
    receiver = await startHttpsReceiver({ certificates });
  });
  afterAll(async () => {
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const get = (): HttpsReceiver => {
    if (receiver === undefined) throw new Error('receiver not started');
    return receiver;
  };
  return {
    env: { OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8', OUTBOUND_CA_FILE: caFile },
    receiver: get,
    url: (path) => get().url(path, '127.0.0.1'),
    requestsTo: (path) => get().requests.filter((request) => request.path === path),
  };
}
