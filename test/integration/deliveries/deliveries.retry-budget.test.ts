import { afterAll, beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock, startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import type { StoreKind } from '../../helpers/stores.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { ok, webhookApi } from '../webhooks/webhook-fixtures.js';
import { BASE_MS, INBOUND_SECRET, retryAppOptions, retryPass, START } from './retry-fixtures.js';

/** A wallet's retry budget (docs/limits.md "Delivery retries"). */
const BUDGET_DELIVERIES = 64;
const BUDGET_BYTES = 4 * 1024 * 1024;
const BUDGET_FULL = /^retry budget full: /;

describeEachStore('a wallet’s retry budget: deliveries and bytes pending retry', (kind: StoreKind) => {
  const clock = new ManualClock(START);
  const outbound = useOutboundFixture();
  let t: TestApp;
  let n = 0;
  let path: string;
  beforeEach(async () => {
    t ??= await startTestApp(kind, retryAppOptions(clock, outbound, { timeoutMs: 5000 }));
    clock.set(START);
    path = `/budget/${++n}`;
    outbound.receiver().respondWith({ status: 503, body: 'busy' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const newWallet = async (webhookPath: string) => {
    const token = await t.createToken(1000);
    const api = webhookApi(t, token);
    const created = ok(await api.create({ webhookId: 'hook', url: outbound.url(webhookPath), retry: { attempts: 8 } }));
    const deliveries = async () => {
      const listed = ok(
        await t.inject({ method: 'GET', url: '/webhook/hook/deliveries?n=100', headers: { 'x-token': token } }),
      );
      return listed.deliveries as Array<{
        id: string;
        status: string;
        lastError: string | null;
        nextAttemptAt: string | null;
      }>;
    };
    return { api, deliveries, email: String(created.email) };
  };
  const sentTimes = (id: string) => outbound.requestsTo(path).filter((r) => r.headers['webhook-id'] === id).length;

  it('failed deliveries beyond 64 pending, even made at once, end as failures with "retry budget full" and are never sent again', async () => {
    const hostile = await newWallet(path);
    const EXTRA = 6;
    const answers = await Promise.all(
      Array.from({ length: BUDGET_DELIVERIES + EXTRA }, () => hostile.api.test('hook')),
    );
    for (const answer of answers) expect(ok(answer).success).toBe(false);
    const all = await hostile.deliveries();
    const pending = all.filter((d) => d.status === 'pending');
    const refused = all.filter((d) => d.status === 'failure');
    expect([pending.length, refused.length]).toStrictEqual([BUDGET_DELIVERIES, EXTRA]);
    for (const d of refused) {
      expect(d.lastError).toMatch(BUDGET_FULL);
      expect(d.nextAttemptAt).toBeNull();
    }

    // Another wallet's failed delivery still gets its retries; the refused ones are never sent again.
    const otherPath = `${path}/other`;
    const other = await newWallet(otherPath);
    ok(await other.api.test('hook'));
    expect((await other.deliveries())[0]).toMatchObject({ status: 'pending' });
    outbound.receiver().respondWith({ status: 200 });
    clock.set(START + 2 * BASE_MS);
    const sentBefore = outbound.requestsTo(path).length;
    expect(await retryPass(t)).toMatchObject({ sent: BUDGET_DELIVERIES + 1, succeeded: BUDGET_DELIVERIES + 1 });
    const retried = outbound
      .requestsTo(path)
      .slice(sentBefore)
      .map((r) => String(r.headers['webhook-id']));
    expect(retried.sort()).toStrictEqual(pending.map((d) => d.id).sort());

    // Ended deliveries give their room back: the next failure is retried again.
    outbound.receiver().respondWith({ status: 503 });
    ok(await hostile.api.test('hook'));
    expect((await hostile.deliveries())[0]).toMatchObject({ status: 'pending', lastError: 'HTTP 503' });
  }, 60_000);

  it('mail whose kept content would take the wallet over 4 MiB pending retry ends as a failure, its content dropped, and is not sent again', async () => {
    const mailbox = await newWallet(path);
    // About 0.9 MB of text per message: four fit in 4 MiB, the fifth does not.
    const line = `${'x'.repeat(74)}\r\n`;
    const message = (i: number) =>
      [
        `From: Ann <ann@sender.test>`,
        `Subject: Big ${i}`,
        `Message-ID: <big-${i}-${n}@sender.test>`,
        '',
        line.repeat(12_000),
      ].join('\r\n');
    for (let i = 1; i <= 5; i++) {
      const res = await t.inject({
        method: 'POST',
        url: `/inbound/raw?recipient=${encodeURIComponent(mailbox.email)}`,
        headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': INBOUND_SECRET },
        payload: message(i),
      });
      expect(res.statusCode, res.body).toBe(202);
      await t.inbound?.idle();
    }
    const sent = await outbound.receiver().waitForRequests(outbound.receiver().requests.length);
    const sizes = outbound.requestsTo(path).map((r) => r.body.length);
    expect(sizes).toHaveLength(5);
    expect(sizes.slice(0, 4).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(BUDGET_BYTES);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeGreaterThan(BUDGET_BYTES);
    void sent;

    const ids = outbound.requestsTo(path).map((r) => String(r.headers['webhook-id']));
    const byId = new Map((await mailbox.deliveries()).map((d) => [d.id, d]));
    expect(ids.slice(0, 4).map((id) => byId.get(id)?.status)).toStrictEqual([
      'pending',
      'pending',
      'pending',
      'pending',
    ]);
    expect(byId.get(ids[4] as string)).toMatchObject({ status: 'failure', nextAttemptAt: null });
    expect(byId.get(ids[4] as string)?.lastError).toMatch(BUDGET_FULL);
    const bodyOf = async (id: string) =>
      (await t.deps.store.read.get<{ body: string | null }>('SELECT body FROM deliveries WHERE id = $1', [id]))?.body;
    expect(await bodyOf(ids[4] as string)).toBeNull(); // routed mail is not kept once its delivery ended

    outbound.receiver().respondWith({ status: 200 });
    clock.set(START + 2 * BASE_MS);
    expect(await retryPass(t)).toMatchObject({ sent: 4 });
    expect(ids.map(sentTimes)).toStrictEqual([2, 2, 2, 2, 1]);
  }, 60_000);
});
