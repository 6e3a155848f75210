import { defineConfig } from 'vitest/config';

/**
 * Tests that hold a running service to latency bounds under a flood (a victim wallet's slowest call, the longest
 * health poll), or one call to a time a few times what it costs (a filtered log page over a week-long log), run after
 * the rest, one at a time: the bounds are about what one wallet can do to another, or what one call costs, and tests
 * sharing the machine's two cores would measure each other instead.
 */
const latencyBound = [
  'test/integration/security/tenant-isolation.test.ts',
  'test/integration/security/worst-inputs.test.ts',
  'test/integration/logs/logs.page-week.test.ts',
  'test/integration/http/openapi-documents-at-listen.test.ts',
];

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: latencyBound, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: latencyBound,
          poolOptions: { forks: { singleFork: true } },
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
