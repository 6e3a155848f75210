import { describe, expect, it } from 'vitest';
import { startPoller } from '../../../src/jobs/poller.js';
import { systemClock } from '../../../src/lib/time.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise the test resolves by hand. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('startPoller', () => {
  it('runs a pass at start and again on later ticks', async () => {
    let passes = 0;
    const stop = startPoller({
      intervalMs: 20,
      clock: systemClock,
      pass: async () => passes++,
      onError: () => undefined,
    });
    await sleep(150);
    await stop();
    expect(passes).toBeGreaterThanOrEqual(3);
  });

  it('stop() resolves only after the pass in progress, which sees stopping() turn true', async () => {
    const release = deferred();
    const started = deferred();
    let sawStopping = false;
    const stop = startPoller({
      intervalMs: 60_000,
      clock: systemClock,
      pass: async (stopping) => {
        started.resolve();
        await release.promise;
        sawStopping = stopping();
      },
      onError: () => undefined,
    });
    await started.promise;
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await sleep(50);
    expect(stopped).toBe(false);
    release.resolve();
    await stopping;
    expect(sawStopping).toBe(true);
  });

  it('never runs two passes at once; a wake during a pass runs one more right after it', async () => {
    const release = deferred();
    let running = 0;
    let peak = 0;
    let passes = 0;
    const stop = startPoller({
      intervalMs: 60_000,
      // Mid-interval, whatever the time of day: with the system clock a run just before a whole minute met the
      // periodic tick as well (a third pass).
      clock: { now: () => 30_000 },
      pass: async () => {
        running++;
        peak = Math.max(peak, running);
        passes++;
        if (passes === 1) await release.promise;
        running--;
      },
      onError: () => undefined,
    });
    await sleep(20);
    stop.wake();
    stop.wake();
    expect(passes).toBe(1);
    release.resolve();
    await sleep(50);
    await stop();
    expect(passes).toBe(2);
    expect(peak).toBe(1);
  });

  it('passes a failed pass to onError and keeps polling', async () => {
    const errors: unknown[] = [];
    let passes = 0;
    const stop = startPoller({
      intervalMs: 20,
      clock: systemClock,
      pass: async () => {
        passes++;
        throw new Error(`pass ${passes}`);
      },
      onError: (error) => errors.push(error),
    });
    await sleep(100);
    await stop();
    expect(passes).toBeGreaterThanOrEqual(2);
    expect(errors).toHaveLength(passes);
  });
});
