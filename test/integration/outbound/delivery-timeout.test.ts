// docs/contract.md#deliveries, rule 2, and #limits: a webhook delivery gives up after 10 seconds.
// Other tests shorten the limit with `timeoutMs` to stay fast; this file is the only one that waits for
// the default, so it fails if DEFAULT_TIMEOUT_MS changes or is dropped. Every case takes ~10 s, so all of
// them run concurrently: four tests, under vitest's default maxConcurrency of 5.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { createOutbound, OutboundError, type Outbound } from '../../../src/outbound/outbound-client.js';
import { describeEachStore } from '../../helpers/each-store.js';
import {
  createTestCertificates,
  localhostLookup,
  startHttpsReceiver,
  type HttpsReceiver,
  type ScriptedResponse,
} from '../../helpers/https-receiver.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { useTestApp } from '../../helpers/use-test-app.js';

const PER_TEST_TIMEOUT_MS = 20_000;
const CAUSE = 'timeout after 10s';

/** Wall time of `work`, measured here rather than trusted from the client. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

function expectAboutTenSeconds(expect: ExpectStatic, ms: number): void {
  expect(ms, 'elapsed ms').toBeGreaterThanOrEqual(9_500);
  expect(ms, 'elapsed ms').toBeLessThanOrEqual(11_500);
}

// No headers ever; or headers, then one byte every 200 ms, so no single read waits long: only an
// overall limit ends the second one.
const SILENT: ScriptedResponse = { hang: true };
const DRIP: ScriptedResponse = { status: 200, drip: { chunk: 'x', intervalMs: 200 } };
const receivers = [
  { what: 'sends no response headers at all', path: '/silent' },
  { what: 'sends headers, then a body that drips forever', path: '/drip' },
];

describe.concurrent('the 10-second delivery timeout', () => {
  describe('the outbound client with its default limits', () => {
    let receiver: HttpsReceiver;
    let outbound: Outbound;
    beforeAll(async () => {
      const certs = createTestCertificates();
      receiver = await startHttpsReceiver({
        certificates: certs,
        responder: (req) => (req.path.startsWith('/drip') ? DRIP : SILENT),
      });
      outbound = createOutbound({
        allowCidrs: ['127.0.0.0/8'],
        extraCaPem: certs.caPem,
        lookup: localhostLookup,
        userAgent: 'coinop-webhook/0.1.0',
      });
    });
    afterAll(async () => {
      await outbound.close();
      await receiver.close();
    });

    // deliverJson (webhooks) and request (other callers) side by side: both fail the same way.
    for (const { what, path } of receivers) {
      it(
        `gives up after 10 s with "timeout after 10s" when the receiver ${what}`,
        async ({ expect }) => {
          const [delivery, request] = await Promise.all([
            timed(() => outbound.deliverJson(receiver.url(`${path}/deliver`), '{}')),
            timed(() =>
              outbound.request({ url: receiver.url(`${path}/request`) }).then(
                () => null,
                (e: unknown) => e,
              ),
            ),
          ]);
          expect(delivery.value).toStrictEqual({ ok: false, cause: CAUSE, elapsedMs: expect.any(Number) });
          const err = request.value as OutboundError;
          expect(err).toBeInstanceOf(OutboundError);
          expect([err.code, err.message]).toEqual(['timeout', CAUSE]);
          expectAboutTenSeconds(expect, delivery.ms);
          expectAboutTenSeconds(expect, request.ms);
        },
        PER_TEST_TIMEOUT_MS,
      );
    }
  });

  describeEachStore('POST /webhook/{webhookId}/test to a receiver that never answers', (kind) => {
    const outbound = useOutboundFixture();
    const get = useTestApp(kind, { env: outbound.env });

    it(
      'answers after 10 s with 200 {success: false, "webhook call failed: timeout after 10s"}, charged 1, sent once',
      async ({ expect }) => {
        const token = await get().createToken(100);
        outbound.receiver().respondWith(SILENT);
        const created = await get().inject({
          method: 'POST',
          url: '/webhook',
          headers: { 'x-token': token, 'content-type': 'application/json' },
          payload: JSON.stringify({ webhookId: 'silent', url: outbound.url('/silent') }),
        });
        expect(created.statusCode, created.body).toBe(200);

        const { value: res, ms } = await timed(() =>
          get().inject({ method: 'POST', url: '/webhook/silent/test', headers: { 'x-token': token } }),
        );
        expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
        expect(res.json()).toStrictEqual({ success: false, message: `webhook call failed: ${CAUSE}` });
        expect([res.headers['x-cost'], res.headers['x-balance']]).toEqual(['1', '98']); // 100 - create - test
        expect(outbound.requestsTo('/silent')).toHaveLength(1); // no retry
        expectAboutTenSeconds(expect, ms);
      },
      PER_TEST_TIMEOUT_MS,
    );
  });
});
