import { describeDatabase, readConfig } from '../server/config/app-config.ts';
import { readSchemaDir } from '../server/schema-files.ts';
import { openDatabase } from '../server/db/database-factory.ts';
import { syncSchema } from '../server/db/schema-sync.ts';
import { START_LOCK } from '../server/db/dialect-adapter.ts';
import { SchemaRegistry } from '../engine/schema/schema-registry.ts';
import { bulkSeed } from './bulk-seed.ts';

/**
 * `npm run seed -- --size N`: adds N generated stock_movement rows (plus the
 * benchmark products and inventories they link to) and N posted journal lines
 * (seed/bulk-journal.ts, for the ledger reports) to the database named by
 * DATABASE_URL (a SQLite file path, or postgres://…).
 */

const USAGE = 'usage: npm run seed -- --size N   (N: number of stock_movement rows and of journal lines to add, e.g. 1000000; 1_000_000 and 1e6 are accepted)';

function parseArgs(argv: string[]): { size: number } {
  let raw: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--size') {
      raw = argv[++i];
      if (raw === undefined) throw new Error('--size needs a value');
    } else if (a.startsWith('--size=')) {
      raw = a.slice('--size='.length);
    } else if (a === '--help' || a === '-h') {
      throw new Error('');
    } else {
      throw new Error(`unknown argument "${a}"`);
    }
  }
  if (raw === undefined) throw new Error('--size is required');
  const text = raw.replace(/_/g, '');
  const size = /^\d+(e\d+)?$/i.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(size) || size < 1) throw new Error(`--size must be a positive whole number, not "${raw}"`);
  return { size };
}

async function main(): Promise<void> {
  let size: number;
  try {
    ({ size } = parseArgs(process.argv.slice(2)));
  } catch (err) {
    const msg = (err as Error).message;
    console.error(msg ? `[seed] ${msg}\n${USAGE}` : USAGE);
    process.exit(msg ? 2 : 0);
  }
  const log = (m: string) => console.log(`[seed] ${m}`);
  const config = readConfig();
  const registry = new SchemaRegistry(readSchemaDir(config.schemasDir));
  const db = openDatabase(config.databaseUrl);
  try {
    log(`database: ${db.adapter.name} ${describeDatabase(config.databaseUrl)}`);
    // under the start lock, so a server starting meanwhile waits instead of syncing beside it
    await db.alone(START_LOCK, async () => {
      const sync = await syncSchema(db, registry.fileSchemas());
      if (!sync.skipped) log(`schema sync: ${sync.created.length} tables created, ${sync.addedColumns.length} columns added`);
      await bulkSeed(db, registry, { size, journalLines: size, log });
    }, () => log('a server is preparing the database; waiting for it to finish'));
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error('[seed] failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
