import { expect, it, vi } from 'vitest';
import { WriteBuffer } from '../../../src/lib/write-buffer.js';

function buffer(options: { maxBatch?: number; maxDelayMs?: number; keepOnFailure?: number } = {}) {
  const written: number[][] = [];
  const errors: Array<{ dropped: number }> = [];
  let failing = false;
  const target = new WriteBuffer<number>(
    async (batch) => {
      if (failing) throw new Error('store down');
      written.push(batch);
    },
    (_error, dropped) => errors.push({ dropped }),
    {
      maxBatch: options.maxBatch ?? 3,
      maxDelayMs: options.maxDelayMs ?? 50,
      keepOnFailure: options.keepOnFailure ?? 0,
    },
  );
  return { target, written, errors, fail: (on: boolean) => (failing = on) };
}

it('writes a full batch at once', async () => {
  const { target, written } = buffer({ maxBatch: 3 });
  [1, 2, 3, 4].forEach((item) => target.add(item));
  await target.flush();
  expect(written).toEqual([[1, 2, 3], [4]]);
});

it('writes a partial batch once it has waited maxDelayMs', async () => {
  vi.useFakeTimers();
  try {
    const { target, written } = buffer({ maxDelayMs: 50 });
    target.add(1);
    await vi.advanceTimersByTimeAsync(49);
    expect(written).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(written).toEqual([[1]]);
  } finally {
    vi.useRealTimers();
  }
});

it('keeps the newest items of a failed write for the next flush, and reports the dropped ones', async () => {
  const { target, written, errors, fail } = buffer({ maxBatch: 10, keepOnFailure: 2 });
  fail(true);
  [1, 2, 3].forEach((item) => target.add(item));
  await target.flush();
  expect(errors).toEqual([{ dropped: 1 }]);
  fail(false);
  target.add(4);
  await target.flush();
  expect(written).toEqual([[2, 3, 4]]);
});

it('drops a failed batch when told to keep nothing, and says how many', async () => {
  const { target, written, errors, fail } = buffer({ keepOnFailure: 0 });
  fail(true);
  [1, 2].forEach((item) => target.add(item));
  await target.flush();
  fail(false);
  await target.flush();
  expect(errors).toEqual([{ dropped: 2 }]);
  expect(written).toEqual([]);
});

it('writes a backlog kept through an outage maxBatch items at a time', async () => {
  const { target, written, fail } = buffer({ maxBatch: 100, keepOnFailure: 1000 });
  fail(true);
  for (let item = 0; item < 250; item++) target.add(item);
  await target.flush();
  fail(false);
  await target.flush();
  expect(written.map((batch) => batch.length)).toEqual([100, 100, 50]);
  expect(written.flat()).toEqual(Array.from({ length: 250 }, (_, item) => item));
});

it('tries kept items again by itself after a failed write, with nothing new added', async () => {
  vi.useFakeTimers();
  try {
    const { target, written, fail } = buffer({ keepOnFailure: 10 });
    fail(true);
    target.add(1);
    await target.flush();
    fail(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(written).toEqual([[1]]);
  } finally {
    vi.useRealTimers();
  }
});
