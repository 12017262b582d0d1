import { join } from 'node:path';
import { appendFileSync, chmodSync, mkdirSync } from 'node:fs';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { SchemaRegistry } from '../engine/schema/schema-registry.ts';
import { readSchemaDir } from './schema-files.ts';
import { openDatabase } from './db/database-factory.ts';
import { syncSchema, type SyncReport } from './db/schema-sync.ts';
import { buildApp, type BuiltApp } from './app.ts';
import { readReportDir } from './reports/report-catalogue.ts';
import { describeDatabase, sqlitePathOf, type AppConfig } from './config/app-config.ts';
import { START_LOCK, type Database } from './db/dialect-adapter.ts';
import type { EntityService } from './crud/entity-service.ts';
import { ensureAdmin } from './auth/builtin-accounts.ts';
import { refreshOverrides } from './meta/schema-overrides.ts';
import { listCustomFields } from './meta/custom-fields.ts';
import { FEATURES } from './features.ts';
import { businessClock } from '../engine/documents/business-clock.ts';
import { s3Storage } from './files/file-storage.ts';
import { ensureSingletonRows } from './crud/singleton-rows.ts';

export interface Started extends BuiltApp {
  db: Database;
  registry: SchemaRegistry;
  sync: SyncReport;
  seeded: Record<string, number> | null;
}

export interface BootstrapOptions {
  log?: (msg: string) => void;
  web?: (app: FastifyInstance) => Promise<void> | void;
  hashLogN?: number;
  /** A ready logger (server/ops/logging.ts); without it the app makes its own at config.logLevel. */
  logger?: FastifyBaseLogger;
  /** Loads the demo data when config.seed is "demo" (seed/demo-seeder.ts): handed over by the start script, so the server does not import seed/. */
  seeder?: DemoSeeder;
}

/** The demo data's loader: the rows it made per entity, and the demo accounts. */
export type DemoSeeder = (db: Database, service: EntityService, demoPassword: string | undefined, hashLogN?: number)
  => Promise<{ rows: Record<string, number>; usernames: string[]; generatedPassword?: string }>;

const SEED_KEY = 'demo_seeded';
/** Written when the demo data begins loading; with no SEED_KEY beside it, a start was interrupted halfway through. */
const SEED_BEGUN_KEY = 'demo_seeding';

/** A start refused for a reason the operator can act on; main prints its message without a stack. */
export class StartRefusedError extends Error {
  override name = 'StartRefusedError';
}

/** Makes a synced database ready for the app: the features' own tables (server/features.ts), the built-in roles, the overrides read. */
export async function prepareDatabase(db: Database, registry: SchemaRegistry): Promise<SyncReport> {
  const sync = await syncSchema(db, registry.fileSchemas());
  // each feature's own tables (and fills of columns just added), in the order of the feature list
  for (const feature of FEATURES) for (const table of feature.tables ?? []) await table(db, registry);
  // last: the overrides are read once every table they may name exists
  await refreshOverrides(db, registry);
  return sync;
}

/** Schemas → database → app → admin and demo data: everything `npm start` does before listening. */
export async function bootstrap(config: AppConfig, opts: BootstrapOptions = {}): Promise<Started> {
  businessClock.timeZone = config.businessTimeZone;
  const log = opts.log ?? (() => undefined);
  const registry = new SchemaRegistry(readSchemaDir(config.schemasDir));
  const db = openDatabase(config.databaseUrl);
  try {
    // instances starting together on one PostgreSQL database would otherwise all create the tables, the admin and the demo data
    return await db.alone(START_LOCK, () => prepareAll(config, opts, registry, db, log),
      () => log('another instance is preparing the database; waiting for it to finish'));
  } catch (err) {
    await db.close();
    throw err;
  }
}

async function prepareAll(config: AppConfig, opts: BootstrapOptions, registry: SchemaRegistry, db: Database, log: (m: string) => void): Promise<Started> {
  const sync = await prepareDatabase(db, registry);
  if (!sync.skipped) {
    log(`schema sync: ${sync.created.length} tables created, ${sync.addedColumns.length} columns added, ${sync.renamed.length} renamed`);
  }
  for (const h of sync.heldBackIndexes) {
    log(`warning: ดัชนีไม่ซ้ำ ${h.index} ของ ${h.table} (${h.columns.join(', ')}) ยังไม่ได้สร้าง เพราะมีข้อมูลซ้ำ: ${h.duplicates.join('; ')} — แก้ข้อมูลที่ซ้ำแล้วเริ่มระบบใหม่ / `
      + `the unique index ${h.index} on ${h.table} (${h.columns.join(', ')}) was not created because rows already share a value: ${h.duplicates.join('; ')}; mend those rows and start again, and it is created then`);
  }
  // columns of custom fields (removed ones too) are in no schema file by design
  const custom = new Set((await listCustomFields(db.kysely)).map((f) => `${f.entity}.${f.name}`));
  for (const o of [...sync.orphanTables.map((t) => `table ${t}`), ...sync.orphanColumns.filter((c) => !custom.has(c)).map((c) => `column ${c}`)]) {
    log(`warning: ${o} is in the database but in no schema file; it was kept (drop it by hand if it is no longer needed)`);
  }
  const store = config.uploadStore.kind === 's3' ? await s3Storage(config.uploadStore) : null;
  const built = await buildApp({
    db, registry, jwtSecret: config.jwtSecret, uploadDir: config.uploadDir, uploadStore: store ?? undefined, trustProxy: config.trustProxy, uploadMaxBytes: config.uploadMaxBytes, tokenTtlSeconds: config.tokenTtlSeconds, redisUrl: config.redisUrl, redisKey: config.redisKey, allowedOrigins: config.allowedOrigins, hashLogN: opts.hashLogN, mail: config.mail,
    reports: readReportDir(join(config.schemasDir, 'reports'), registry),
    logger: opts.logger ?? (config.logLevel === 'silent' ? false : { level: config.logLevel }), web: opts.web,
  });
  try {
    return { ...built, db, registry, sync, seeded: await prepareData(config, opts, db, registry, built, log) };
  } catch (err) {
    // its timers, sockets and Redis clients would otherwise keep a failed start's process (or test) alive
    await built.app.close().catch(() => undefined);
    throw err;
  }
}

/** The built-in accounts, the singletons' rows and, once, the demo data; the demo data's row counts when loaded now. */
async function prepareData(config: AppConfig, opts: BootstrapOptions, db: Database, registry: SchemaRegistry, built: Awaited<ReturnType<typeof buildApp>>, log: (m: string) => void): Promise<Record<string, number> | null> {
  const admin = await ensureAdmin(db, built.service, config.adminPassword, opts.hashLogN);
  if (admin.created) log(admin.password ? `created the admin account; its generated password is in ${keepPassword(config.dataDir, 'admin', admin.password)}` : 'created the admin account with ADMIN_PASSWORD');
  // every singleton (site settings) has its one row, so its screen opens on a fresh start
  await ensureSingletonRows(built.service, registry, log);
  let seeded: Record<string, number> | null = null;
  if (config.seed === 'demo' && !(await stateValue(db, SEED_KEY))) {
    // loading again over part of the demo data would fail on its first row (its codes are taken), on every start
    const begun = await stateValue(db, SEED_BEGUN_KEY);
    if (begun) {
      const file = sqlitePathOf(config.databaseUrl);
      throw new StartRefusedError(`the demo data began loading into ${describeDatabase(config.databaseUrl)} at ${begun} and did not finish (that start was interrupted or failed), so the database holds only part of it. `
        + `Start with SEED=none to use it as it is, or ${file ? `delete ${file} and its -wal and -shm files` : 'drop the database and create it again, empty,'} to load the demo data afresh.`);
    }
    if (!opts.seeder) throw new Error('SEED=demo needs the demo data\'s loader (bootstrap\'s "seeder" option, seed/demo-seeder.ts)');
    await db.kysely.insertInto('schema_state').values({ key: SEED_BEGUN_KEY, value: new Date().toISOString() }).execute();
    const accounts = await opts.seeder(db, built.service, config.demoPassword, opts.hashLogN);
    seeded = accounts.rows;
    await db.kysely.insertInto('schema_state').values({ key: SEED_KEY, value: new Date().toISOString() }).execute();
    log(`demo data loaded: ${Object.values(seeded).reduce((a, b) => a + b, 0)} rows, ${accounts.usernames.length} demo accounts (${accounts.usernames.join(', ')})`);
    if (accounts.generatedPassword) log(`the demo accounts' generated password is in ${keepPassword(config.dataDir, 'demo accounts', accounts.generatedPassword)}`);
  }
  return seeded;
}

/**
 * A generated password goes to a file only this user can read, never into the log
 * (logs are shipped and kept); the log line says where it is.
 */
function keepPassword(dataDir: string, who: string, password: string): string {
  const file = join(dataDir, 'initial-passwords.txt');
  mkdirSync(dataDir, { recursive: true });
  // dated: a first start that was interrupted and run again leaves an earlier line whose password no longer works
  appendFileSync(file, `${new Date().toISOString()} ${who}: ${password}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return `${file} (readable by this user only; delete it once noted)`;
}

async function stateValue(db: Database, key: string): Promise<string | undefined> {
  const row = await db.kysely.selectFrom('schema_state').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value as string | undefined;
}
