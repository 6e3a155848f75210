import { afterAll, beforeAll, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import { startHttpsReceiver, type HttpsReceiver } from '../../helpers/https-receiver.js';
import { webhookApi } from '../webhooks/webhook-fixtures.js';

describeEachStore('a webhook whose receiver redirects to another origin', (kind) => {
  const fixture = useOutboundFixture();
  // A second HTTPS server on another port (another origin), trusted through the same CA.
  let elsewhere: HttpsReceiver | undefined;
  beforeAll(async () => {
    elsewhere = await startHttpsReceiver({ certificates: fixture.receiver().certificates });
  });
  afterAll(async () => {
    await elsewhere?.close();
  });
  const get = useTestApp(kind, { env: fixture.env });

  it.each([307, 302])(
    'after a %i the new origin gets no custom header, and a signature that verifies',
    async (status) => {
      const target = elsewhere as HttpsReceiver;
      const api = webhookApi(get(), await get().createToken(100));
      const created = (
        await api.create({ url: fixture.url('/hook'), headers: { 'X-Api-Key': 'k-secret', Authorization: 'Bearer b' } })
      ).json();
      fixture.receiver().enqueue({ status, headers: { location: target.url(`/moved-${status}`, '127.0.0.1') } });
      const before = target.requests.length;
      expect((await api.test(String(created.webhookId))).json()).toEqual({
        success: true,
        message: 'test webhook delivered',
      });
      const [original] = fixture.requestsTo('/hook').slice(-1);
      const moved = target.requests[before];
      expect(original?.headers['x-api-key']).toBe('k-secret');
      expect(moved?.path).toBe(`/moved-${status}`);
      expect([moved?.headers['x-api-key'], moved?.headers.authorization]).toEqual([undefined, undefined]);
      if (status === 307) {
        const headers = {
          'webhook-id': String(moved?.headers['webhook-id']),
          'webhook-timestamp': String(moved?.headers['webhook-timestamp']),
          'webhook-signature': String(moved?.headers['webhook-signature']),
        };
        expect(() => new Webhook(String(created.signingSecret)).verify(moved?.text ?? '', headers)).not.toThrow();
      }
    },
  );
});
