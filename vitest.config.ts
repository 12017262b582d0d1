import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['engine/**/*.test.ts', 'server/**/*.test.ts', 'tests/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
    exclude: ['tests/bench/**', 'node_modules/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    // the ten slowest files are printed after the summary, to keep an eye on CI's 20 minutes
    reporters: ['default', './tests/support/slowest-files-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for something that must happen; 1 s (vitest's default) is too short on a loaded
    // machine. Tests that promise a time limit ("within 1 second") pass their own timeout and measure it.
    expect: { poll: { timeout: 10_000 } },
    // database tests create their own databases, so files can run in parallel on the 2 cores
    pool: 'forks',
    // vitest's default is cores − 1, one worker on a 2-core machine: most files wait on PostgreSQL, SQLite
    // files or Chromium rather than on the CPU, so two workers there roughly halve the run
    // (VITEST_MAX_WORKERS overrides).
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || Math.max(2, availableParallelism() - 1),
  },
});
