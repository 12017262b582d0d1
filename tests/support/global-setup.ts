import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropRunDatabases } from './test-databases.ts';
import { RUN_DIR_ENV, RUN_ID_ENV } from './test-run.ts';

/** The process that named the run (vitest's main process), so a second project's setup shares it. */
const OWNER_ENV = 'BO_TEST_RUN_OWNER';

/**
 * Says plainly, once per run, whether PostgreSQL was part of it; names the run and its scratch folder for
 * the templates the test files share (test-run.ts); afterwards drops the run's PostgreSQL databases.
 */
export default function setup(): () => Promise<void> {
  // each vitest project (vitest.config.ts) runs the global setup: the first names the run, the others share it
  if (process.env[OWNER_ENV] === String(process.pid) && process.env[RUN_DIR_ENV]) return async () => undefined;
  if (process.env.TEST_DATABASE_URL) {
    console.log(`\n[tests] database tests run on SQLite and on PostgreSQL (${process.env.TEST_DATABASE_URL})\n`);
  } else {
    console.log('\n[tests] WARNING: TEST_DATABASE_URL is not set, so PostgreSQL was NOT tested; only SQLite ran.\n');
  }
  const run = `r${process.pid.toString(36)}${Date.now().toString(36)}`;
  const dir = mkdtempSync(join(tmpdir(), `bo-test-run-${run}-`));
  // set before the workers start, so each inherits them
  process.env[RUN_ID_ENV] = run;
  process.env[RUN_DIR_ENV] = dir;
  process.env[OWNER_ENV] = String(process.pid);
  return async () => {
    const t0 = Date.now();
    rmSync(dir, { recursive: true, force: true });
    try {
      const dropped = await dropRunDatabases(run);
      if (dropped > 0) console.log(`[tests] dropped the run's ${dropped} PostgreSQL test databases in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } catch (e) {
      // the tests' verdict stands; what is left is named so it can be dropped by hand
      console.warn(`[tests] could not drop the run's PostgreSQL databases (bo_test_${run}_*, bo_tmpl_${run}_*): ${(e as Error).message}`);
    }
  };
}
