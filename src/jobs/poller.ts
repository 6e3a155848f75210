import type { Clock } from '../lib/time.js';

/**
 * A background worker started by service.ts: call it to stop (resolves once the pass in progress has
 * finished, so its writes land before the store closes), or `wake()` it to run a pass now.
 */
export interface RunningWorker {
  (): Promise<void>;
  /** Runs a pass now instead of at the next tick (or right after the pass in progress). */
  wake(): void;
}

export interface PollerOptions {
  readonly intervalMs: number;
  readonly clock: Clock;
  /** One pass over the due work; `stopping()` turns true once stop was called, so a long pass can end early. */
  readonly pass: (stopping: () => boolean) => Promise<unknown>;
  readonly onError: (error: unknown) => void;
}

/** Ticks land this long after a whole multiple of the interval, so work due on the second starts right after it. */
const TICK_OFFSET_MS = 5;

/**
 * Runs `pass` at once, then at every whole multiple of `intervalMs` (by the service clock), never
 * two passes at a time. Timers are unref'd: a worker never keeps the process alive on its own.
 */
export function startPoller(options: PollerOptions): RunningWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let wakeAgain = false;

  const untilNextTick = (): number => options.intervalMs - (options.clock.now() % options.intervalMs) + TICK_OFFSET_MS;
  const arm = (delayMs: number): void => {
    timer = setTimeout(tick, delayMs);
    timer.unref();
  };
  function tick(): void {
    timer = undefined;
    if (stopped) return;
    wakeAgain = false;
    inFlight = options
      .pass(() => stopped)
      .then(
        () => undefined,
        (error: unknown) => options.onError(error),
      )
      .finally(() => {
        inFlight = undefined;
        if (!stopped) arm(wakeAgain ? 0 : untilNextTick());
      });
  }

  // The first pass runs at start: it catches up on work missed while the service was down.
  arm(0);

  const stop = async (): Promise<void> => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    await inFlight;
  };
  const wake = (): void => {
    if (stopped) return;
    if (inFlight !== undefined) {
      wakeAgain = true;
      return;
    }
    if (timer !== undefined) clearTimeout(timer);
    arm(0);
  };
  return Object.assign(stop, { wake });
}
