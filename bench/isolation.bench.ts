/**
 * Tenant isolation (`npx tsx bench/isolation.bench.ts`): the scenario of
 * test/integration/security/tenant-isolation.test.ts (test/helpers/isolation), its figures printed as the
 * Markdown table of bench/RESULTS.md "Tenant isolation", then each bound not met. SQLite, and PostgreSQL too
 * when BENCH_DATABASE_URL is set (a scratch schema); BENCH_SKIP_SQLITE=1 leaves SQLite out. The victim's retry
 * is waited for up to 60 s past due (the test stops at 20 s), so a late one is measured rather than cut off.
 * Nothing is pinned: the hostile tenant is a process of its own, the service another.
 */
import { execFileSync } from 'node:child_process';
import { onEachStore, withScratchDir } from './lib.js';
import { runIsolationScenario } from '../test/helpers/isolation/scenario.js';
import { figuresTable, violations } from '../test/helpers/isolation/figures.js';
import type { IsolationFigures } from '../test/helpers/isolation/figures.js';

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const runs: IsolationFigures[] = await withScratchDir('coinop-isolation-bench-', (dir) =>
  onEachStore(dir, (label, databaseUrl) =>
    runIsolationScenario({ store: label, databaseUrl, retryWaitMs: 60_000, log: (line) => console.error(line) }),
  ),
);
console.log(`Tenant isolation, ${new Date().toISOString().slice(0, 10)}, commit ${commit}\n`);
console.log(figuresTable(runs));
const failed = runs.flatMap(violations);
console.log(
  failed.length === 0 ? '\nEvery bound met.' : `\nBounds not met:\n${failed.map((line) => `- ${line}`).join('\n')}`,
);
console.log(`\n${JSON.stringify(runs)}`);
