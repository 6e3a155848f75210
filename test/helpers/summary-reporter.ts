import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the plain closing line CI reads: "N passed, N failed, N skipped", preceded by the suites that
 * ran no test at all (those that need PostgreSQL when TEST_DATABASE_URL is unset, or a PostgreSQL
 * installation), so a run on SQLite alone says what it did not cover.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skippedSuites: string[] = [];
    for (const module of modules) {
      let ran = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
        if (state === 'passed' || state === 'failed') ran++;
      }
      if (module.state() === 'failed' && module.children.size === 0) failed++;
      else if (ran === 0) skippedSuites.push(relative(process.cwd(), module.moduleId));
    }
    if (skippedSuites.length > 0) {
      const why = process.env.TEST_DATABASE_URL
        ? ''
        : ' (TEST_DATABASE_URL is unset: PostgreSQL-only suites do not run)';
      process.stdout.write(
        `\nSuites that ran no test${why}:\n${skippedSuites.map((path) => `  ${path}`).join('\n')}\n`,
      );
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
