import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the test files of one vitest run share. global-setup.ts makes a scratch folder for the run and
 * names it (and the run) in these variables, which every worker inherits. The first file that needs an
 * expensive starting point (an empty database with every table, the demo data) makes it there once,
 * and the files after it copy it instead of building their own: the copy is the same bytes a fresh
 * build gives, made minutes earlier. Without the variables (a bench run with tsx, an old runner) each
 * caller builds its own, as before.
 */
export const RUN_DIR_ENV = 'BO_TEST_RUN_DIR';
export const RUN_ID_ENV = 'BO_TEST_RUN_ID';

export const runDir = (): string | undefined => process.env[RUN_DIR_ENV] || undefined;
/** Lower-case letters and digits, so it can be part of a PostgreSQL database name. */
export const runId = (): string | undefined => process.env[RUN_ID_ENV] || undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A make that takes longer than this died with its worker (a killed file); its lock is taken over. */
const STALE_LOCK_MS = 5 * 60_000;

/**
 * The run's folder for `key`, made by `make` once per run: a lock folder keeps two workers from making it
 * at the same time, and a `.ready` mark says it is complete. Undefined outside a run (no run folder).
 */
export async function oncePerRun(key: string, make: (dir: string) => Promise<void>): Promise<string | undefined> {
  const root = runDir();
  if (!root) return undefined;
  const dir = join(root, key);
  const ready = join(dir, '.ready');
  const lock = `${dir}.lock`;
  const started = Date.now();
  for (;;) {
    if (existsSync(ready)) return dir;
    try {
      mkdirSync(lock);
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      if (Date.now() - started > 2 * STALE_LOCK_MS) throw new Error(`timed out waiting for the test run's ${key}`);
      await sleep(200);
      continue;
    }
    try {
      if (existsSync(ready)) return dir;
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      await make(dir);
      writeFileSync(ready, new Date().toISOString());
      return dir;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
