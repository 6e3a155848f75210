import { expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { scratchDatabase } from '../../helpers/stores.js';
import { runIsolationScenario } from '../../helpers/isolation/scenario.js';
import { figuresTable, violations } from '../../helpers/isolation/figures.js';

/**
 * One wallet must not be able to buy the service away from the others. A hostile wallet on about 70
 * connections runs at once, for 20 s, the costliest calls there are (64 tests in flight to a webhook that
 * never answers, each with 8 retries; url-to-metadata of pages answering after 9 s; MCP batches of them;
 * paid KV writes back to back), while a victim wallet works on connections of its own. The victim's GET /kv
 * p99 stays within max(50 ms, 10 × its quiet p99) and no call over 250 ms; no /healthz poll waits over
 * 250 ms; its retry, due 1 s after a 503 while the hostile retries are in flight, arrives within 6 s of due;
 * its test deliveries and url-to-metadata of an ordinary page answer within 1 s each.
 * The scenario (test/helpers/isolation) is the one `npx tsx bench/isolation.bench.ts` runs.
 */

describeEachStore('tenant isolation on a running service', (kind) => {
  it('keeps a victim wallet within its bounds while a hostile wallet floods the service', async () => {
    const database = await scratchDatabase(kind);
    try {
      const figures = await runIsolationScenario({ store: kind, databaseUrl: database.url });
      console.log(`tenant isolation [${kind}]\n${figuresTable([figures])}\n${JSON.stringify(figures)}`);
      expect(violations(figures)).toEqual([]);
    } finally {
      await database.drop();
    }
  }, 120_000);
});
