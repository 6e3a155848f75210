import { describe, expect, it } from 'vitest';
import { useTwoPostgresInstances } from '../../helpers/use-test-app.js';
import { balanceOf } from '../../helpers/app.js';

/**
 * Two instances batch their KV writes separately; batches that touch the same keys from both sides
 * must neither deadlock nor lose an acknowledged write, and every set is charged once.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('key-value writes, two instances on one PostgreSQL', () => {
  const instances = useTwoPostgresInstances();

  it('answers every concurrent set of shared keys from both instances, and keeps one of the values set', async () => {
    const [first, second] = instances();
    const token = await first.createToken(1000);
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const setOf = new Map<string, Set<string>>(keys.map((key) => [key, new Set<string>()]));
    // Each instance writes every key, in opposite orders, many times at once.
    const calls = Array.from({ length: 200 }, (_, i) => {
      const app = i % 2 === 0 ? first : second;
      const key = (i % 2 === 0 ? keys[i % keys.length] : keys[keys.length - 1 - (i % keys.length)]) as string;
      setOf.get(key)?.add(`v${i}`);
      return app.inject({ method: 'POST', url: `/kv/shared/${key}`, payload: `v${i}`, headers: { 'x-token': token } });
    });
    const answers = await Promise.all(calls);
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    expect(await balanceOf(first, token)).toBe(800);
    for (const key of keys) {
      const value = (await second.inject({ method: 'GET', url: `/kv/shared/${key}`, headers: { 'x-token': token } }))
        .body;
      expect(setOf.get(key)?.has(value), `${key} = ${value}`).toBe(true);
    }
  });
});
