import type { Clock } from '../lib/time.js';
import type { OutageLog } from './outage-log.js';

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
  /**
   * The worker's outage log (its onError reports there): a pass that succeeds ends an outage, and while
   * one lasts the next pass comes within OUTAGE_RETRY_MS.
   */
  readonly outage?: OutageLog;
}

/** Ticks land this long after a whole multiple of the interval, so work due on the second starts right after it. */
const TICK_OFFSET_MS = 5;
/**
 * While the store is away a pass is tried again at least this often, so a worker with a long interval
 * (the minute sweep) resumes within seconds of the store's return; each try fails at once (the store's
 * availability gate) unless it is the one call that probes.
 */
export const OUTAGE_RETRY_MS = 2000;

/**
 * Runs `pass` at once, then at every whole multiple of `intervalMs` (by the service clock), never
 * two passes at a time. Timers are unref'd: a worker never keeps the process alive on its own.
 */
export function startPoller(options: PollerOptions): RunningWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let wakeAgain = false;

  const untilNextTick = (): number => {
    const delay = options.intervalMs - (options.clock.now() % options.intervalMs) + TICK_OFFSET_MS;
    return options.outage?.inOutage === true ? Math.min(delay, OUTAGE_RETRY_MS) : delay;
  };
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
        () => options.outage?.answered(),
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
