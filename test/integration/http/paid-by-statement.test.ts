import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { balanceOf } from '../../helpers/app.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import { meteredApp } from '../../helpers/metered-app.js';
import type { LoggedLine } from '../../helpers/metered-app.js';
import type { MeterSpec } from '../../../src/http/metering.js';

const meter: MeterSpec = { category: 'kv', cost: 2, paidByStatement: true };

/**
 * A route whose charge its own statement makes (MeterSpec.paidByStatement): where the store pays in statements,
 * metering charges nothing before the handler, so a handler that answers success without that statement must not
 * hand out a free call, nor hide it.
 */
describeEachStore('a route paid by its statement that answers without it', (kind) => {
  const get = useTestApp(kind);
  let app: FastifyInstance;
  let logged: LoggedLine[] = [];

  beforeAll(async () => {
    ({ app, logged } = meteredApp(get().deps));
    app.get('/forgets-its-statement', { config: { meter } }, () => Promise.resolve('OK'));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is answered 500 and charged nothing where the store pays in statements; charged as any call elsewhere', async () => {
    const token = await get().createToken(10);
    const res = await app.inject({ method: 'GET', url: '/forgets-its-statement', headers: { 'x-token': token } });
    if (get().deps.ledger.paysInStatements) {
      expect([res.statusCode, res.body]).toEqual([500, 'Internal Server Error']);
      expect(res.headers['x-cost']).toBeUndefined();
      expect(await balanceOf(get(), token)).toBe(10);
      expect(logged.map((line) => line.msg)).toEqual(['committing a charge failed']);
    } else {
      // SQLite: the charge was made before the handler, in the group commit its writes share.
      expect([res.statusCode, res.body, res.headers['x-cost'], res.headers['x-balance']]).toEqual([
        200,
        'OK',
        '2',
        '8',
      ]);
      expect(await balanceOf(get(), token)).toBe(8);
    }
  });
});
