import { isStoreUnavailable, StoreUnavailableError } from './store-errors.js';

/**
 * Fails fast while the database is known to be away. Once a call meets a connection failure, calls
 * during the next PROBE_INTERVAL_MS fail at once with StoreUnavailableError instead of each waiting out
 * the connect and statement bounds; after that one call at a time goes through as a probe, and the
 * first that succeeds closes the gap. A request thus waits out the bounds at most once.
 */
export const PROBE_INTERVAL_MS = 500;

export class Availability {
  private lastFailureAt: number | undefined;
  private probing = false;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** False while the store is known to be away. */
  get available(): boolean {
    return this.lastFailureAt === undefined;
  }

  async guard<T>(call: () => Promise<T>): Promise<T> {
    const failedAt = this.lastFailureAt;
    if (failedAt === undefined) return this.observe(call, false);
    if (this.probing || this.now() - failedAt < PROBE_INTERVAL_MS)
      throw new StoreUnavailableError('the database was unreachable moments ago');
    this.probing = true;
    return this.observe(call, true);
  }

  private async observe<T>(call: () => Promise<T>, probe: boolean): Promise<T> {
    try {
      const result = await call();
      this.lastFailureAt = undefined;
      return result;
    } catch (error) {
      // Any other error came from a server that answered.
      if (isStoreUnavailable(error)) this.lastFailureAt = this.now();
      else this.lastFailureAt = undefined;
      throw error;
    } finally {
      if (probe) this.probing = false;
    }
  }
}
