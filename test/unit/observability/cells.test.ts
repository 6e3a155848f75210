import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CounterFamily, HistogramFamily } from '../../../src/observability/cells.js';

describe('metric cells', () => {
  it('a histogram cell writes cumulative buckets, bounds inclusive (le), with sum and count', async () => {
    const registry = new Registry();
    const family = new HistogramFamily(registry, { name: 'demo_seconds', help: 'demo', buckets: [0.1, 1] });
    const cell = family.cell({ route: '/a' });
    for (const value of [0.05, 0.1, 0.5, 1, 7]) cell.observe(value);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE demo_seconds histogram');
    expect(text).toContain('demo_seconds_bucket{route="/a",le="0.1"} 2');
    expect(text).toContain('demo_seconds_bucket{route="/a",le="1"} 4');
    expect(text).toContain('demo_seconds_bucket{route="/a",le="+Inf"} 5');
    expect(text).toContain('demo_seconds_sum{route="/a"} 8.65');
    expect(text).toContain('demo_seconds_count{route="/a"} 5');
  });

  it('a counter cell is read into the counter when scraped, as a running total', async () => {
    const registry = new Registry();
    const family = new CounterFamily(registry, { name: 'demo_total', help: 'demo', labelNames: ['kind'] });
    const cell = family.cell({ kind: 'x' });
    cell.inc();
    cell.inc(4);
    expect(await registry.metrics()).toContain('demo_total{kind="x"} 5');
    cell.inc();
    expect(await registry.metrics()).toContain('demo_total{kind="x"} 6');
  });
});
