import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['engine/**/*.test.ts', 'server/**/*.test.ts', 'tests/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
    exclude: ['tests/bench/**', 'node_modules/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for something that must happen; 1 s (vitest's default) is too short on a loaded
    // machine. Tests that promise a time limit ("within 1 second") pass their own timeout and measure it.
    expect: { poll: { timeout: 10_000 } },
    // database tests create their own databases, so files can run in parallel on the 2 cores
    pool: 'forks',
  },
});
