/**
 * Shared by the scheduler and low-balance suites: a real HTTPS receiver the app is allowed to call
 * (its CA in a temp file for OUTBOUND_CA_FILE), and scheduled webhook rows written straight into
 * the store (the management API is not what these suites test).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Deps } from '../../../src/deps.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { findWalletByHash } from '../../../src/features/tokens/wallet.queries.js';
import { createTestCertificates, startHttpsReceiver } from '../../helpers/https-receiver.js';
import type { HttpsReceiver, ReceivedRequest } from '../../helpers/https-receiver.js';

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

export async function walletIdOf(deps: Deps, token: string): Promise<number> {
  const wallet = await findWalletByHash(deps.store.read, sha256Hex(token));
  if (wallet === undefined) throw new Error('no such wallet');
  return wallet.id;
}

export interface ScheduleRow {
  readonly walletId: number;
  readonly webhookId: string;
  readonly url: string;
  readonly cron: string;
  readonly timezone?: string;
  readonly active?: boolean;
  readonly nextRunAt: number;
  readonly headers?: Record<string, string>;
  readonly signingSecret?: string;
}

const INSERT = `INSERT INTO webhooks (wallet_id, webhook_id, url, headers, signing_secret, cron, timezone, active, next_run_at, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`;

const params = (row: ScheduleRow, now: number): unknown[] => [
  row.walletId,
  row.webhookId,
  row.url,
  JSON.stringify(row.headers ?? {}),
  row.signingSecret ?? '',
  row.cron,
  row.timezone ?? 'UTC',
  row.active === false ? 0 : 1,
  row.nextRunAt,
  now,
];

export async function insertSchedules(deps: Deps, rows: readonly ScheduleRow[]): Promise<void> {
  const now = deps.clock.now();
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await deps.store.write(async (tx) => {
      for (const row of chunk) await tx.run(INSERT, params(row, now));
    });
  }
}

export interface ScheduleState {
  readonly active: number;
  readonly next_run_at: number | null;
  readonly last_run_at: number | null;
  readonly last_status: string | null;
  readonly last_error: string | null;
}

export async function scheduleState(deps: Deps, walletId: number, webhookId: string): Promise<ScheduleState | undefined> {
  return deps.store.read.get<ScheduleState>(
    'SELECT active, next_run_at, last_run_at, last_status, last_error FROM webhooks WHERE wallet_id = $1 AND webhook_id = $2',
    [walletId, webhookId],
  );
}
