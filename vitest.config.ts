import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './tests/support/longest-first-sequencer.ts';

/**
 * The files that run in a fresh worker process each (vitest's `isolate`), because they change what a process
 * shares: a DOM environment, module mocks, a stubbed global or clock (web/src); PostgreSQL, Redis, S3 or the
 * disk taken away, uncaught-exception listeners (tests/faults); pool sizes and timeouts from the environment
 * read while their app starts. Every other file runs in a worker that keeps its imported modules for the next
 * file (`isolate: false`): importing the server, Fastify, Kysely and Playwright again for each of some 230 files
 * cost 730–810 s summed in CI. Such a file must leave the process as it found it (restore what it changes,
 * close what it opens); its data is its own (each test app and browser test has a fresh database).
 */
const ISOLATED = [
  'web/src/**/*.test.{ts,tsx}',
  'tests/faults/**/*.test.ts',
  'tests/api/error-catalogue.test.ts',
  'tests/db/postgres-split-pool.test.ts',
  'tests/ops/concurrent-bootstrap.test.ts',
  'tests/ops/database-timeouts.test.ts',
];
const ALL = ['engine/**/*.test.ts', 'server/**/*.test.ts', 'tests/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'];
const NEVER = ['tests/bench/**', 'node_modules/**'];

export default defineConfig({
  test: {
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
    // the longest files first (by tests/support/test-durations.json on a clean clone), so that no long file
    // starts near the end while the other worker runs out of files
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      // vitest queues one project's files after the other's (by name: isolated, then shared), and a shared worker
      // is kept for the next file only while that file is of its own project; one group (no groupOrder), so a
      // worker that ends the isolated files goes straight on to the shared ones
      { extends: true, test: { name: 'shared', include: ALL, exclude: [...NEVER, ...ISOLATED], isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED, exclude: NEVER, isolate: true } },
    ],
  },
});
