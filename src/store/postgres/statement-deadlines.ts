import pg from 'pg';
import { READ_TIMEOUT_MESSAGE } from '../store-errors.js';

/** How often the statements in flight are checked: a statement is cut at most this long after its deadline. */
export const DEADLINE_SWEEP_MS = 250;

/**
 * A statement sent to the server, kept in its store's list of statements in flight until it is answered. Its
 * connection is destroyed when it is not answered in time, which fails it and everything else on that connection;
 * the pool never hands that connection out again.
 */
export class DeadlinedQuery extends pg.Query {
  /** Its place in the list of statements in flight; -1 when not in it. */
  slot = -1;
  /** The sweep count when it was sent. */
  sentAt = 0;
  connection: pg.Connection | undefined = undefined;

  constructor(
    readonly deadlines: StatementDeadlines,
    text: string,
    values: unknown[] | undefined,
  ) {
    super(text, values);
  }
}

// pg sends a query by calling its `submit` with the connection (declared as a property in pg's types, so set here on
// the prototype rather than overridden, which would make a function per statement).
const sendQuery = pg.Query.prototype.submit;
(DeadlinedQuery.prototype as { submit: (this: DeadlinedQuery, connection: pg.Connection) => void }).submit = function (
  connection,
) {
  this.deadlines.sent(this, connection);
  return sendQuery.call(this, connection);
};

/**
 * The client's bound on a server that stops answering altogether: a statement not answered within `limitMs` of
 * being sent fails (docs/reference.md#while-the-database-is-away). One sweep every DEADLINE_SWEEP_MS for all the
 * statements in flight, where pg's own `query_timeout` arms a timer per statement: measured on `GET /kv`, with those
 * timers each statement's objects outlived young-generation collections (about 500 bytes a request promoted, against
 * 120 without them) and the collections' pauses nearly doubled (bench/RESULTS.md).
 */
export class StatementDeadlines {
  private readonly inFlight: DeadlinedQuery[] = [];
  /** Sweeps a statement may stay in flight: its deadline falls between limitMs and limitMs + DEADLINE_SWEEP_MS. */
  private readonly sweepsAllowed: number;
  private sweeps = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(limitMs: number) {
    this.sweepsAllowed = Math.ceil(limitMs / DEADLINE_SWEEP_MS);
  }

  sent(query: DeadlinedQuery, connection: pg.Connection): void {
    query.connection = connection;
    query.sentAt = this.sweeps;
    query.slot = this.inFlight.length;
    this.inFlight.push(query);
    this.timer ??= setTimeout(this.sweep, DEADLINE_SWEEP_MS).unref();
  }

  /** The statement was answered (or failed): no longer watched. */
  settled(query: DeadlinedQuery): void {
    const slot = query.slot;
    if (slot < 0) return;
    const last = this.inFlight.pop() as DeadlinedQuery;
    if (last !== query) {
      this.inFlight[slot] = last;
      last.slot = slot;
    }
    query.slot = -1;
    query.connection = undefined;
  }

  private readonly sweep = (): void => {
    this.sweeps++;
    // The late ones collected first, then cut: settling one moves another statement into its slot.
    const late = this.inFlight.filter((query) => this.sweeps - query.sentAt > this.sweepsAllowed);
    for (const query of late) {
      const stream = query.connection?.stream;
      this.settled(query);
      stream?.destroy(new Error(READ_TIMEOUT_MESSAGE));
    }
    this.timer = this.inFlight.length === 0 ? undefined : setTimeout(this.sweep, DEADLINE_SWEEP_MS).unref();
  };

  /** Stops sweeping (the store is closing). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
