import type { Logger } from 'pino';
import { isStoreUnavailable } from '../store/store-errors.js';

/**
 * How a background worker reports failures: the store going away is one warning when the outage
 * begins and one info line when the store answers again, however many passes fail meanwhile; any
 * other failure is an error every time (it is a fault, not the weather).
 */
export class OutageLog {
  private since: number | undefined;

  constructor(private readonly logger: Logger) {}

  /** True from the first failure that met the store away until `answered()`. */
  get inOutage(): boolean {
    return this.since !== undefined;
  }

  /** Reports a failure; true when it says the store is away (the worker pauses and tries again later). */
  report(error: unknown, message: string): boolean {
    if (!isStoreUnavailable(error)) {
      this.logger.error({ err: error }, message);
      return false;
    }
    if (this.since === undefined) {
      this.since = performance.now();
      this.logger.warn({ err: error }, `${message}: the store is unreachable; paused until it answers again`);
    }
    return true;
  }

  /** The store answered: ends the outage, if there was one. */
  answered(): void {
    if (this.since === undefined) return;
    this.logger.info({ outageMs: Math.round(performance.now() - this.since) }, 'the store answers again: resumed');
    this.since = undefined;
  }
}
