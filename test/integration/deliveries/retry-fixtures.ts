import { readFileSync } from 'node:fs';
import type { ManualClock, TestApp, TestAppOptions } from '../../helpers/app.js';
import type { ScratchDatabase } from '../../helpers/stores.js';
import type { OutboundFixture } from '../../helpers/outbound-fixture.js';
import { createOutbound } from '../../../src/outbound/outbound-client.js';
import { runDueRetries } from '../../../src/delivery-core/index.js';
import type { FindDeliveryTarget } from '../../../src/delivery-core/index.js';
import { findDeliveryTarget } from '../../../src/features/webhooks/index.js';

export const START = Date.parse('2026-06-01T12:00:00.000Z');
export const BASE_MS = 30_000;
export const INBOUND_SECRET = 'relay-secret-for-delivery-retries';

/** An app whose retries wait BASE_MS first and whose outbound calls give up after `timeoutMs` (1 s unless told). */
export function retryAppOptions(
  clock: ManualClock,
  outbound: OutboundFixture,
  options: { database?: ScratchDatabase; timeoutMs?: number } = {},
): TestAppOptions {
  return {
    clock,
    database: options.database,
    env: { ...outbound.env, INBOUND_SECRET, MAIL_DOMAIN: 'hooks.coinop.test', DELIVERY_RETRY_BASE_MS: String(BASE_MS) },
    overrides: (config) => ({
      outbound: createOutbound({
        allowCidrs: config.outboundAllowCidrs,
        extraCaPem: readFileSync(outbound.env.OUTBOUND_CA_FILE ?? '', 'utf8'),
        userAgent: 'coinop-webhook/0.1.0',
        timeoutMs: options.timeoutMs ?? 1000,
      }),
    }),
  };
}

/** The webhooks feature's answer to "where does this delivery go now", as service.ts wires it. */
export const targetsOf =
  (t: TestApp): FindDeliveryTarget =>
  (walletId, webhookId) =>
    findDeliveryTarget(t.deps.store.read, walletId, webhookId);

/** One pass of the retry worker on `t`: every retry due now, sent. */
export const retryPass = (t: TestApp) => runDueRetries(t.deps, { findTarget: targetsOf(t) });
