import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { ManualClock, startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import type { StoreKind } from '../../helpers/stores.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { sleep, until } from '../../helpers/wait.js';
import { RETRY_CLAIM_LEASE_MS, runDueRetries, startRetryWorker } from '../../../src/delivery-core/index.js';
import { ok, webhookApi } from '../webhooks/webhook-fixtures.js';
import { BASE_MS, retryAppOptions, START, targetsOf } from './retry-fixtures.js';

/** An attempt to a receiver that never answers lasts this long (the outbound client's timeout here). */
const ATTEMPT_MS = 2500;
/** The hostile wallet's deliveries: as many as its retry budget lets it keep pending. */
const HOSTILE_DELIVERIES = 64;
/** The retry slots one wallet may hold (docs/limits.md "Delivery retries"). */
const SLOTS_PER_WALLET = 4;

describeEachStore('delivery retries shared fairly between wallets', (kind: StoreKind) => {
  const clock = new ManualClock(START);
  const outbound = useOutboundFixture();
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, retryAppOptions(clock, outbound, { timeoutMs: ATTEMPT_MS }));
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A wallet with one webhook at `path` that retries up to 8 times. */
  const walletWithWebhook = async (path: string) => {
    const api = webhookApi(t, await t.createToken(1000));
    ok(await api.create({ webhookId: 'hook', url: outbound.url(path), retry: { attempts: 8 } }));
    return api;
  };

  it('a wallet flooding retries to a URL that never answers holds at most its slots; another wallet’s retry due later goes out at once', async () => {
    clock.set(START);
    const arrivals: Array<{ path: string; at: number }> = [];
    let hostileHangs = false;
    outbound.receiver().respondWith((request) => {
      arrivals.push({ path: request.path, at: performance.now() });
      return request.path === '/hostile' && hostileHangs ? { hang: true } : { status: 503 };
    });
    const hostile = await walletWithWebhook('/hostile');
    for (let i = 0; i < HOSTILE_DELIVERIES; i++) ok(await hostile.test('hook')); // each first attempt fails at once: pending
    clock.set(START + 3 * BASE_MS);
    const victim = await walletWithWebhook('/victim');
    ok(await victim.test('hook')); // its retry is due about START + 4 × BASE_MS, after every hostile one
    hostileHangs = true;
    const sentAfter = arrivals.length;
    const hostileAttempts = () => arrivals.slice(sentAfter).filter((a) => a.path === '/hostile');
    const victimRetries = () => arrivals.slice(sentAfter).filter((a) => a.path === '/victim');

    clock.set(START + 2 * BASE_MS); // every hostile retry due, the victim's not yet
    const worker = startRetryWorker(t.deps, 'fairness-test', { findTarget: targetsOf(t) });
    try {
      expect(await until(() => hostileAttempts().length >= SLOTS_PER_WALLET, 5000)).toBe(true);
      await sleep(500);
      clock.set(START + 10 * BASE_MS); // the victim's retry is due now
      const dueAt = performance.now();
      expect(await until(() => victimRetries().length > 0, 4 * ATTEMPT_MS)).toBe(true);
      const waited = (victimRetries()[0]?.at ?? Number.POSITIVE_INFINITY) - dueAt;
      expect.soft(waited).toBeLessThan(3000);
      await sleep(ATTEMPT_MS);
    } finally {
      await worker();
    }
    // Each hostile attempt holds its slot for ATTEMPT_MS: within any shorter window at most the wallet's slots started.
    const starts = hostileAttempts().map((a) => a.at);
    const mostAtOnce = Math.max(
      ...starts.map((at) => starts.filter((other) => other >= at && other < at + ATTEMPT_MS - 300).length),
    );
    expect(mostAtOnce).toBe(SLOTS_PER_WALLET);
  }, 40_000);

  it('two workers on one database send each due retry once', async () => {
    clock.set(START);
    const firstAttempts = new Set<string>();
    let failing = true;
    outbound.receiver().respondWith((request) => {
      if (request.path !== '/twice') return { status: 200 };
      const id = String(request.headers['webhook-id']);
      if (failing) firstAttempts.add(id);
      return failing ? { status: 500 } : { status: 200 };
    });
    const wallets = await Promise.all([
      walletWithWebhook('/twice'),
      walletWithWebhook('/twice'),
      walletWithWebhook('/twice'),
    ]);
    for (const api of wallets) for (let i = 0; i < 12; i++) ok(await api.test('hook'));
    failing = false;
    const before = outbound.requestsTo('/twice').length;
    clock.set(START + 2 * BASE_MS);
    const workers = [
      startRetryWorker(t.deps, 'first', { findTarget: targetsOf(t) }),
      startRetryWorker(t.deps, 'second', { findTarget: targetsOf(t) }),
    ];
    try {
      expect(await until(() => outbound.requestsTo('/twice').length - before >= firstAttempts.size, 10_000)).toBe(true);
      await sleep(2500); // two more polls of each worker: nothing is sent again
    } finally {
      await Promise.all(workers.map((stop) => stop()));
    }
    const retried = outbound
      .requestsTo('/twice')
      .slice(before)
      .map((r) => String(r.headers['webhook-id']));
    expect(firstAttempts.size).toBe(36);
    expect(retried.sort()).toStrictEqual([...firstAttempts].sort());
  }, 30_000);

  it('a claim while a wallet has attempts in flight takes only the room its slots leave: nothing claimed waits', async () => {
    clock.set(START);
    let hang = false;
    let answeredFast = false;
    outbound.receiver().respondWith((request) => {
      if (request.path !== '/room' || !hang) return { status: 503 };
      // The first retry fails at once, freeing one of the wallet's slots while the others hang.
      if (!answeredFast) {
        answeredFast = true;
        return { status: 503 };
      }
      return { hang: true };
    });
    const api = await walletWithWebhook('/room');
    for (let i = 0; i < 8; i++) ok(await api.test('hook')); // 8 retries pending
    hang = true;
    const before = outbound.requestsTo('/room').length;
    clock.set(START + 2 * BASE_MS);
    const leaseUntil = clock.now() + RETRY_CLAIM_LEASE_MS;
    const pass = runDueRetries(t.deps, { findTarget: targetsOf(t) });
    const leased = async () =>
      (
        await t.deps.store.read.get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'pending' AND next_attempt_at = $1",
          [leaseUntil],
        )
      )?.n ?? 0;
    try {
      // 4 claimed, the first ends at once, 1 more claimed into its slot: 4 hanging, every leased one sent.
      expect(await until(() => outbound.requestsTo('/room').length - before >= SLOTS_PER_WALLET + 1, 5000)).toBe(true);
      await sleep(300);
      expect(Number(await leased())).toBe(SLOTS_PER_WALLET);
      expect(outbound.requestsTo('/room').length - before).toBe(SLOTS_PER_WALLET + 1);
    } finally {
      await pass;
    }
  }, 30_000);
});
