import { expect, it } from 'vitest';
import { Batcher } from '../../../src/lib/batcher.js';

function recorder() {
  const batches: number[][] = [];
  let release: (() => void) | undefined;
  const batcher = new Batcher<number, number>(async (items) => {
    batches.push(items);
    if (items.includes(-1)) throw new Error('bad batch');
    await new Promise<void>((resolve) => (release = resolve));
    return items.map((item) => item * 10);
  });
  return { batcher, batches, release: () => release?.() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

it('writes the items of one turn as one batch and answers each in order', async () => {
  const { batcher, batches, release } = recorder();
  const results = Promise.all([1, 2, 3].map((item) => batcher.submit(item)));
  await tick();
  release();
  expect(await results).toEqual([10, 20, 30]);
  expect(batches).toEqual([[1, 2, 3]]);
});

it('keeps one batch in flight: items arriving meanwhile form the next batch', async () => {
  const { batcher, batches, release } = recorder();
  const first = batcher.submit(1);
  await tick();
  expect(batches).toEqual([[1]]);
  const later = [batcher.submit(2), batcher.submit(3)];
  await tick();
  expect(batches).toEqual([[1]]);
  release();
  expect(await first).toBe(10);
  await tick();
  expect(batches).toEqual([[1], [2, 3]]);
  release();
  expect(await Promise.all(later)).toEqual([20, 30]);
});

it('rejects every item of a failed batch, and only those', async () => {
  const { batcher, release } = recorder();
  const failed = [batcher.submit(-1), batcher.submit(4)];
  await expect(failed[0]).rejects.toThrow('bad batch');
  await expect(failed[1]).rejects.toThrow('bad batch');
  const next = batcher.submit(5);
  await tick();
  release();
  expect(await next).toBe(50);
});

it('reports when it has run dry', async () => {
  let idle = 0;
  const batcher = new Batcher<number, number>(
    async (items) => items,
    () => idle++,
  );
  await batcher.submit(1);
  await tick();
  expect(idle).toBe(1);
});
