import { defineConfig } from 'vitest/config';

/**
 * Tests that hold a running service to latency bounds under a flood (a victim wallet's slowest call, the longest
 * health poll) run after the rest, one at a time: the bounds are about what one wallet can do to another, and two
 * load tests sharing the machine's cores would measure each other instead.
 */
const latencyBound = [
  'test/integration/security/tenant-isolation.test.ts',
  'test/integration/security/worst-inputs.test.ts',
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
