import { Counter, Gauge } from 'prom-client';
import type { Histogram, Registry } from 'prom-client';

/**
 * Hot-path counting in plain numbers: a part that counts holds its cell (made once per label value) and adds
 * to a field, with no label object, hash string or validation per call as prom-client's own `inc`/`observe`
 * make. The cells become prom-client's shape only when /metrics is scraped.
 */
export class CountCell {
  value = 0;
  inc(amount = 1): void {
    this.value += amount;
  }
}

export class HistogramCell {
  /** Observations per bucket, not cumulative (the last slot is +Inf). */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    let slot = 0;
    while (slot < this.bounds.length && value > (this.bounds[slot] as number)) slot++;
    (this.counts[slot] as number)++;
    this.sum += value;
    this.count++;
  }
}

type Labels = Readonly<Record<string, string>>;

interface Definition {
  readonly name: string;
  readonly help: string;
}

/** A counter whose cells are kept per label set; `cell` is called once per label value, not per event. */
export class CounterFamily {
  private readonly cells: { labels: Labels; cell: CountCell }[] = [];

  constructor(registry: Registry, definition: Definition & { labelNames: readonly string[] }) {
    const cells = this.cells;
    new Counter({
      ...definition,
      labelNames: definition.labelNames,
      registers: [registry],
      collect() {
        this.reset();
        for (const { labels, cell } of cells) this.inc(labels, cell.value);
      },
    });
  }

  cell(labels: Labels): CountCell {
    const cell = new CountCell();
    this.cells.push({ labels, cell });
    return cell;
  }
}

/**
 * A histogram kept in HistogramCells and written out in the registry's exposition shape when scraped.
 * prom-client offers no way to load bucket counts into its Histogram, so this is registered as a metric
 * of its own: an object with the `name`, `type` and `get()` the registry reads.
 */
export class HistogramFamily {
  private readonly cells: { labels: Labels; cell: HistogramCell }[] = [];

  constructor(
    registry: Registry,
    private readonly definition: Definition & { buckets: readonly number[] },
  ) {
    const metric = {
      name: definition.name,
      help: definition.help,
      type: 'histogram',
      aggregator: 'sum',
      get: () => Promise.resolve(this.snapshot()),
      reset: () => undefined,
    };
    registry.registerMetric(metric as unknown as Histogram);
  }

  cell(labels: Labels = {}): HistogramCell {
    const cell = new HistogramCell(this.definition.buckets);
    this.cells.push({ labels, cell });
    return cell;
  }

  private snapshot() {
    const { name, help, buckets } = this.definition;
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const { labels, cell } of this.cells) {
      let cumulative = 0;
      for (let slot = 0; slot <= buckets.length; slot++) {
        cumulative += cell.counts[slot] as number;
        values.push({
          labels: { ...labels, le: slot < buckets.length ? (buckets[slot] as number) : '+Inf' },
          value: cumulative,
          metricName: `${name}_bucket`,
        });
      }
      values.push({ labels, value: cell.sum, metricName: `${name}_sum` });
      values.push({ labels, value: cell.count, metricName: `${name}_count` });
    }
    return { name, help, type: 'histogram', aggregator: 'sum', values };
  }
}

/** A gauge read when scraped (state such as a pool's size), so nothing is counted while serving. */
export function scrapedGauge(
  registry: Registry,
  definition: Definition & { labelNames?: readonly string[] },
  read: (gauge: Gauge) => void,
): void {
  new Gauge({
    ...definition,
    labelNames: definition.labelNames ?? [],
    registers: [registry],
    collect() {
      read(this);
    },
  });
}

/** Cells by key, made on first use: for label values not known in advance (routes, categories). */
export class CellMap<K, C> {
  private readonly cells = new Map<K, C>();

  constructor(private readonly make: (key: K) => C) {}

  get(key: K): C {
    let cell = this.cells.get(key);
    if (cell === undefined) {
      cell = this.make(key);
      this.cells.set(key, cell);
    }
    return cell;
  }
}
