import { readSchemaDir } from '../../server/schema-files.ts';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { openDatabase } from '../../server/db/database-factory.ts';
import { syncSchema } from '../../server/db/schema-sync.ts';
import { buildApp, type BuiltApp } from '../../server/app.ts';
import type { Database } from '../../server/db/dialect-adapter.ts';
import { createTestDatabase, type DialectName, type TestDatabase } from './test-databases.ts';
import { resolve } from 'node:path';

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
export async function createTestApp(dialect: DialectName, schemasDir = SCHEMAS_DIR): Promise<TestApp> {
  const testDb = await createTestDatabase(dialect);
  const registry = new SchemaRegistry(readSchemaDir(schemasDir));
  const db = openDatabase(testDb.url);
  await syncSchema(db, registry.fileSchemas());
  const built = await buildApp({ db, registry });
  return {
    ...built, db, registry, testDb, headers: {},
    async close() {
      await built.app.close();
      await db.close();
      await testDb.drop();
    },
  };
}
