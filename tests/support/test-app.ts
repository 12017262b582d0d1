import { readSchemaDir } from '../../server/schema-files.ts';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { openDatabase } from '../../server/db/database-factory.ts';
import { prepareDatabase } from '../../server/bootstrap.ts';
import { ensureAdmin } from '../../server/auth/builtin-accounts.ts';
import { buildApp, type AppOptions, type BuiltApp } from '../../server/app.ts';
import { readReportDir } from '../../server/reports/report-catalogue.ts';
import type { Database } from '../../server/db/dialect-adapter.ts';
import { createTestDatabase, type DialectName, type TestDatabase } from './test-databases.ts';
import { derivedTemplate, preparedTemplate } from './database-templates.ts';
import { loadSeedDir } from '../../seed/demo-seed.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import { join, resolve } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

export const TEST_SECRET = new TextEncoder().encode('test-secret-test-secret-test-secret-0123');
/** scrypt at 2^12 keeps tests fast; production uses 2^17. */
export const TEST_HASH_LOG_N = 12;
export const ADMIN_PASSWORD = 'admin-password-for-tests';

export const SCHEMAS_DIR = resolve(import.meta.dirname, '../../schemas');

export interface TestApp extends BuiltApp {
  db: Database;
  registry: SchemaRegistry;
  testDb: TestDatabase;
  /** Headers that authenticate as the administrator; spread them into every inject() call. */
  headers: Record<string, string>;
  close(): Promise<void>;
}

/** A fully synced app on a fresh database of the given dialect, without demo data. */
/** `extra` adds app options a test needs (SMTP settings for the email tests). */
export async function createTestApp(dialect: DialectName, schemasDir = SCHEMAS_DIR, extra: Partial<AppOptions> = {}): Promise<TestApp> {
  // the project's own schemas start from the run's synced template (the same tables, 0.3 s instead of 1-7 s)
  const template = resolve(schemasDir) === SCHEMAS_DIR ? await preparedTemplate(dialect) : undefined;
  return startApp(await createTestDatabase(dialect, { template }), schemasDir, extra);
}

export const DEMO_SEED_DIR = resolve(import.meta.dirname, '../../seed/demo');

/**
 * createTestApp with the demo data (seed/demo) loaded through the service, as `loadSeedDir` loads it. The
 * database is a copy of the run's demo-loaded template, made once per run, dialect and business day (the demo
 * dates follow today): loading took 5-20 s per app, and nine files of both dialects loaded the same rows.
 * Outside a run it loads the data itself.
 */
export async function createDemoTestApp(dialect: DialectName): Promise<TestApp> {
  const day = businessToday(new Date(), businessClock.timeZone).replaceAll('-', '');
  const template = await derivedTemplate(dialect, `demo_${day}`, async (url) => {
    const t = await startApp({ dialect, url, drop: async () => undefined }, SCHEMAS_DIR, {});
    try {
      await loadSeedDir(t.service, DEMO_SEED_DIR);
    } finally {
      await t.close();
    }
  });
  if (template) return startApp(await createTestDatabase(dialect, { template }), SCHEMAS_DIR, {});
  const t = await createTestApp(dialect);
  await loadSeedDir(t.service, DEMO_SEED_DIR);
  return t;
}

async function startApp(testDb: TestDatabase, schemasDir: string, extra: Partial<AppOptions>): Promise<TestApp> {
  const registry = new SchemaRegistry(readSchemaDir(schemasDir));
  const db = openDatabase(testDb.url);
  // on a copy of a template this changes nothing; it loads the stored overrides into the registry
  await prepareDatabase(db, registry);
  const built = await buildApp({ db, registry, jwtSecret: TEST_SECRET, hashLogN: TEST_HASH_LOG_N, uploadDir: mkdtempSync(join(tmpdir(), 'bo-uploads-')), uploadMaxBytes: 1024 * 1024, reports: readReportDir(join(schemasDir, 'reports'), registry), backupDir: mkdtempSync(join(tmpdir(), 'bo-backups-')), ...extra });
  await ensureAdmin(db, built.service, ADMIN_PASSWORD, TEST_HASH_LOG_N);
  const res = await built.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'admin', password: ADMIN_PASSWORD } });
  const token = res.json().data?.id_token;
  if (!token) throw new Error(`test admin could not sign in: ${res.body}`);
  return {
    ...built, db, registry, testDb, headers: { authorization: `Bearer ${token}` },
    async close() {
      await built.app.close();
      await db.close();
      await testDb.drop();
    },
  };
}
