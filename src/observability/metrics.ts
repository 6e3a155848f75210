import { collectDefaultMetrics, Registry } from 'prom-client';
import { CellMap, CounterFamily, HistogramFamily, scrapedGauge } from './cells.js';
import type { CountCell, HistogramCell } from './cells.js';

/** Seconds: from a cached KV read (~0.1 ms) to a metadata fetch with an AI summary (seconds). */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Deliveries time out after 10 s. */
const DELIVERY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Runs fire within milliseconds of their minute; a run missed while the service was down may be up to an hour late. */
const LATENESS_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 15, 60, 300, 3600];
const GROUP_SIZE_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
const FSYNC_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

export interface PoolUse {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
}

/** What the SQLite store counts (src/store/sqlite). */
export interface SqliteMetrics {
  /** A group commit made durable this many writes (statements and units) together. */
  groupCommitted(writes: number): void;
  /** One fsync of the WAL took this long. */
  fsynced(seconds: number): void;
}

/** What the PostgreSQL store offers: its pool, read when scraped. */
export interface PostgresMetrics {
  watchPool(read: () => PoolUse): void;
}

/** What the ledger counts: every call-log row it records, before the free-row budget (src/ledger). */
export interface LedgerMetrics {
  recorded(category: string, cost: number, statusCode: number): void;
  watchLogBuffer(read: () => number): void;
}

export type StoreMetrics = SqliteMetrics & PostgresMetrics;

/**
 * The metrics of one service instance, in its own registry (tests build several apps in one process), made
 * by the composition root and handed to the parts that count. Hot paths hold cells (cells.ts); state such as
 * pool use and buffer depth is read when /metrics is scraped.
 */
export class ServiceMetrics implements StoreMetrics, LedgerMetrics {
  readonly registry = new Registry();
  private processMetrics = false;
  private readonly httpDuration = new HistogramFamily(this.registry, {
    name: 'coinop_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, with their time from arrival to answer (_count: the requests)',
    buckets: LATENCY_BUCKETS,
  });
  /** method → route → status → cell. */
  private readonly httpCells = new CellMap(
    (method: string) =>
      new CellMap(
        (route: string) =>
          new CellMap((status: number) => this.httpDuration.cell({ method, route, status_code: String(status) })),
      ),
  );
  private readonly charged = new CounterFamily(this.registry, {
    name: 'coinop_credits_charged_total',
    help: 'Credits charged (after refunds), by log category',
    labelNames: ['category'],
  });
  private readonly chargedCells = new CellMap((category: string) => this.charged.cell({ category }));
  private readonly refused = new CounterFamily(this.registry, {
    name: 'coinop_charges_refused_total',
    help: 'Calls and deliveries refused for want of credits (402), by log category',
    labelNames: ['category'],
  });
  private readonly refusedCells = new CellMap((category: string) => this.refused.cell({ category }));
  private readonly kv = new CounterFamily(this.registry, {
    name: 'coinop_kv_operations_total',
    help: 'Key-value operations carried out',
    labelNames: ['operation'],
  });
  private readonly deliveryDuration = new HistogramFamily(this.registry, {
    name: 'coinop_delivery_duration_seconds',
    help: 'Webhook deliveries by trigger and outcome, with their duration (_count: the deliveries)',
    buckets: DELIVERY_BUCKETS,
  });
  private readonly deliveryCells = new CellMap(
    (trigger: string) => new CellMap((outcome: string) => this.deliveryDuration.cell({ trigger, outcome })),
  );
  private readonly smtpSessions = new CounterFamily(this.registry, {
    name: 'coinop_smtp_sessions_total',
    help: 'Inbound SMTP connections, accepted or refused at connect',
    labelNames: ['outcome'],
  });
  private readonly smtpMessages = new CounterFamily(this.registry, {
    name: 'coinop_smtp_messages_total',
    help: 'Inbound SMTP messages at the end of DATA, accepted (250) or refused',
    labelNames: ['outcome'],
  });
  readonly smtp = {
    sessionAccepted: this.smtpSessions.cell({ outcome: 'accepted' }),
    sessionRefused: this.smtpSessions.cell({ outcome: 'refused' }),
    messageAccepted: this.smtpMessages.cell({ outcome: 'accepted' }),
    messageRefused: this.smtpMessages.cell({ outcome: 'refused' }),
  };
  /** How late scheduled runs went out (from their due time to the delivery's start). */
  readonly schedulerLateness = new HistogramFamily(this.registry, {
    name: 'coinop_scheduler_lateness_seconds',
    help: 'Time from a scheduled run being due to its delivery starting',
    buckets: LATENESS_BUCKETS,
  }).cell();
  private readonly groupSize = new HistogramFamily(this.registry, {
    name: 'coinop_sqlite_group_commit_writes',
    help: 'SQLite: writes (statements and units) made durable by one group commit',
    buckets: GROUP_SIZE_BUCKETS,
  }).cell();
  private readonly fsyncDuration = new HistogramFamily(this.registry, {
    name: 'coinop_sqlite_fsync_duration_seconds',
    help: 'SQLite (SQLITE_SYNCHRONOUS=FULL): time one fsync of the WAL took',
    buckets: FSYNC_BUCKETS,
  }).cell();
  private readonly pools: (() => PoolUse)[] = [];
  private readonly logBuffers: (() => number)[] = [];

  constructor() {
    scrapedGauge(
      this.registry,
      {
        name: 'coinop_postgres_pool_connections',
        help: 'PostgreSQL pool: connections open (total), idle, and callers waiting for one',
        labelNames: ['state'],
      },
      (gauge) => {
        for (const read of this.pools) {
          const use = read();
          gauge.set({ state: 'total' }, use.total);
          gauge.set({ state: 'idle' }, use.idle);
          gauge.set({ state: 'waiting' }, use.waiting);
        }
      },
    );
    scrapedGauge(
      this.registry,
      { name: 'coinop_call_log_buffer_rows', help: 'Call-log rows waiting to be written' },
      (gauge) => {
        gauge.set(this.logBuffers.reduce((sum, read) => sum + read(), 0));
      },
    );
  }

  /** The cell of one HTTP outcome; callers keep no reference, the lookup is three map reads. */
  http(method: string, route: string, status: number): HistogramCell {
    return this.httpCells.get(method).get(route).get(status);
  }

  kvOperation(operation: 'get' | 'set' | 'delete' | 'list'): CountCell {
    return this.kv.cell({ operation });
  }

  delivered(trigger: string, ok: boolean, seconds: number): void {
    this.deliveryCells
      .get(trigger)
      .get(ok ? 'success' : 'failure')
      .observe(seconds);
  }

  recorded(category: string, cost: number, statusCode: number): void {
    if (cost > 0) this.chargedCells.get(category).inc(cost);
    if (statusCode === 402) this.refusedCells.get(category).inc();
  }

  watchLogBuffer(read: () => number): void {
    this.logBuffers.push(read);
  }

  watchPool(read: () => PoolUse): void {
    this.pools.push(read);
  }

  groupCommitted(writes: number): void {
    this.groupSize.observe(writes);
  }

  fsynced(seconds: number): void {
    this.fsyncDuration.observe(seconds);
  }

  /** The exposition text. Process metrics join on the first scrape: an instance nobody scrapes runs no event-loop monitor for them. */
  async scrape(): Promise<string> {
    if (!this.processMetrics) {
      this.processMetrics = true;
      collectDefaultMetrics({ register: this.registry });
    }
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
