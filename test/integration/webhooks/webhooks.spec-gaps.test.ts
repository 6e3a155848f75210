import { beforeEach, describe, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import type { ReceivedRequest } from '../../helpers/https-receiver.js';
import { expectError, ok, useReceiver, webhookApi } from './webhook-fixtures.js';
import type { WebhookApi } from './webhook-fixtures.js';

// Contract rows (docs/contract.md) no other test asserted: a missing webhookId in the path, and delivery rules 1 (2xx only) and 2 (redirects).
const ID_RULE = 'Invalid webhookId: must be 1 to 30 characters from A-Z, a-z, 0-9, _ and -';
const DELIVERED = { success: true, message: 'test webhook delivered' };
/** docs/contract.md#deliveries, rule 2, and #limits: at most 10 redirects followed. */
const MAX_REDIRECTS = 10;

describeEachStore('webhooks: contract rows without an earlier test', (kind) => {
  const { env, receiver } = useReceiver();
  const get = useTestApp(kind, { env });
  let api: WebhookApi;
  let url: string;
  beforeEach(async () => {
    api = webhookApi(get(), await get().createToken(1000));
    url = receiver().url('/hook', '127.0.0.1');
    receiver().respondWith({ status: 200, body: 'ok' });
  });

  /** Runs the test of `webhookId`, checks it was a 200 charged 1, and returns its outcome and what the receiver got meanwhile. */
  async function testOutcome(
    webhookId: string,
  ): Promise<{ outcome: Record<string, unknown>; requests: ReceivedRequest[] }> {
    const before = receiver().requests.length;
    const res = await api.test(webhookId);
    expect(res.headers['x-cost']).toBe('1');
    return { outcome: ok(res), requests: receiver().requests.slice(before) };
  }

  describe('a missing webhookId (empty path segment)', () => {
    // docs/contract.md#webhooks allows 400 or 404; `/webhook/` reaches the `/webhook/:webhookId` routes with an empty id, which the
    // id rule refuses with 400, charged 1 as every other refused webhook call.
    it('GET, PUT, PATCH and DELETE /webhook/ answer 400 with the webhookId rule, charge 1 each, and change no webhook', async () => {
      const before = ok(await api.create({ url }));
      expectError(await api.get(''), 400, ID_RULE);
      expectError(await api.put('', { url: `${url}/other` }), 400, ID_RULE);
      expectError(await api.patch('', { url: `${url}/other` }), 400, ID_RULE);
      const removed = await api.remove('');
      expectError(removed, 400, ID_RULE);
      expect(removed.headers['x-balance']).toBe('995');
      const { signingSecret: _secret, ...expected } = before;
      expect(ok(await api.get('default'))).toStrictEqual(expected);
    });
  });

  describe('delivery succeeds only on a 2xx answer', () => {
    it.each([
      ['204 with no body', { status: 204 }],
      ['201 with a body', { status: 201, body: 'created' }],
    ])('counts a receiver answering %s as delivered', async (_name, answer) => {
      ok(await api.create({ webhookId: 'two', url }));
      receiver().enqueue(answer);
      const { outcome, requests } = await testOutcome('two');
      expect(outcome).toStrictEqual(DELIVERED);
      expect(requests.map((request) => [request.method, request.path])).toEqual([['POST', '/hook']]);
    });

    it.each([
      ['302 without a Location (a redirect to nowhere)', { status: 302 }, 'webhook call failed: HTTP 302'],
      ['400', { status: 400, body: 'bad' }, 'webhook call failed: HTTP 400'],
      ['500', { status: 500, body: 'boom' }, 'webhook call failed: HTTP 500'],
    ])(
      'reports a receiver answering %s as success false with the status in the message',
      async (_name, answer, message) => {
        ok(await api.create({ webhookId: 'fail', url }));
        receiver().enqueue(answer);
        const { outcome, requests } = await testOutcome('fail');
        expect(outcome).toStrictEqual({ success: false, message });
        // One call, not retried.
        expect(requests).toHaveLength(1);
      },
    );
  });

  describe('delivery follows at most 10 redirects', () => {
    // `/hops/N` redirects to `/hops/N-1`; `/hops/0` answers 200. 307 keeps the POST and its body, so the end of
    // the chain receives the payload itself.
    beforeEach(() => {
      receiver().respondWith((request) => {
        const left = Number(/^\/hops\/(\d+)$/.exec(request.path)?.[1] ?? 'NaN');
        if (left > 0) return { status: 307, headers: { location: `/hops/${left - 1}` } };
        return left === 0 ? { status: 200, body: 'ok' } : { status: 404 };
      });
    });

    it('delivers through a chain of exactly 10 redirects ending at a 200', async () => {
      ok(await api.create({ webhookId: 'chain', url: receiver().url(`/hops/${MAX_REDIRECTS}`, '127.0.0.1') }));
      const { outcome, requests } = await testOutcome('chain');
      expect(outcome).toStrictEqual(DELIVERED);
      expect(requests.map((request) => request.path)).toEqual(
        Array.from({ length: MAX_REDIRECTS + 1 }, (_, i) => `/hops/${MAX_REDIRECTS - i}`),
      );
      const last = requests.at(-1) as ReceivedRequest;
      expect(last.method).toBe('POST');
      expect(JSON.parse(last.text)).toMatchObject({ subject: 'Test webhook' });
    });

    it('fails with "too many redirects" when an 11th redirect follows, never reaching the end of the chain', async () => {
      ok(await api.create({ webhookId: 'longer', url: receiver().url(`/hops/${MAX_REDIRECTS + 1}`, '127.0.0.1') }));
      const { outcome, requests } = await testOutcome('longer');
      expect(outcome).toStrictEqual({ success: false, message: 'webhook call failed: too many redirects' });
      // 11 requests: the first and 10 followed redirects; the 11th Location (/hops/0) is not followed.
      expect(requests.map((request) => request.path)).toEqual(
        Array.from({ length: MAX_REDIRECTS + 1 }, (_, i) => `/hops/${MAX_REDIRECTS + 1 - i}`),
      );
    });
  });
});
