import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['engine/**/*.test.ts', 'server/**/*.test.ts', 'tests/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
    exclude: ['tests/bench/**', 'node_modules/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // database tests create their own databases, so files can run in parallel on the 2 cores
    pool: 'forks',
  },
});
