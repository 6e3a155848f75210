import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../../src/lib/limiter.js';

describe('createLimiter', () => {
  it('runs at most `concurrency` tasks at once, in arrival order', async () => {
    const limit = createLimiter(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        limit(async () => {
          running += 1;
          peak = Math.max(peak, running);
          order.push(i);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toStrictEqual([0, 1, 2, 3, 4, 5]);
  });
});
