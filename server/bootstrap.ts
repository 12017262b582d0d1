import { resolve } from 'node:path';
import { SchemaRegistry } from '../engine/schema/schema-registry.ts';
import { readSchemaDir } from './schema-files.ts';
import { openDatabase } from './db/database-factory.ts';
import { syncSchema, type SyncReport } from './db/schema-sync.ts';
import { buildApp, type BuiltApp } from './app.ts';
import type { AppConfig } from './config/app-config.ts';
import type { Database } from './db/dialect-adapter.ts';
import { loadSeedDir } from '../seed/demo-seed.ts';

export interface Started extends BuiltApp {
  db: Database;
  registry: SchemaRegistry;
  sync: SyncReport;
  seeded: Record<string, number> | null;
}

const SEED_KEY = 'demo_seeded';

/** Schemas → database → app → demo data: everything `npm start` does before listening. */
export async function bootstrap(config: AppConfig, log: (msg: string) => void = () => undefined): Promise<Started> {
  const registry = new SchemaRegistry(readSchemaDir(config.schemasDir));
  const db = openDatabase(config.databaseUrl);
  try {
    const sync = await syncSchema(db, registry.fileSchemas());
    if (!sync.skipped) {
      log(`schema sync: ${sync.created.length} tables created, ${sync.addedColumns.length} columns added, ${sync.renamed.length} renamed`);
    }
    for (const o of [...sync.orphanTables.map((t) => `table ${t}`), ...sync.orphanColumns.map((c) => `column ${c}`)]) {
      log(`warning: ${o} is in the database but in no schema file; it was kept (drop it by hand if it is no longer needed)`);
    }
    const built = await buildApp({ db, registry, logger: config.logLevel === 'silent' ? false : { level: config.logLevel } });
    let seeded: Record<string, number> | null = null;
    if (config.seed === 'demo' && !(await stateValue(db, SEED_KEY))) {
      seeded = await loadSeedDir(built.service, resolve(import.meta.dirname, '../seed/demo'));
      await db.kysely.insertInto('schema_state').values({ key: SEED_KEY, value: new Date().toISOString() }).execute();
      log(`demo data loaded: ${Object.values(seeded).reduce((a, b) => a + b, 0)} rows`);
    }
    return { ...built, db, registry, sync, seeded };
  } catch (err) {
    await db.close();
    throw err;
  }
}

async function stateValue(db: Database, key: string): Promise<string | undefined> {
  const row = await db.kysely.selectFrom('schema_state').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value as string | undefined;
}
