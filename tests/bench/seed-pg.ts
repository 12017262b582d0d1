/**
 * Seeds a PostgreSQL database once for reports-bench.ts (BENCH_PG_SEEDED), so
 * a run need not seed a million rows again:
 *   BENCH_PG_SEEDED=postgres://127.0.0.1:5432/rpt_bench BENCH_ROWS=1000000 npx tsx tests/bench/seed-pg.ts
 * The database must exist and be empty.
 */
import { openDatabase } from '../../server/db/database-factory.ts';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { readSchemaDir } from '../../server/schema-files.ts';
import { syncSchema } from '../../server/db/schema-sync.ts';
import { bulkSeed } from '../../seed/bulk-seed.ts';
import { SCHEMAS_DIR } from './bench-db.ts';

const db = openDatabase(process.env.BENCH_PG_SEEDED!);
const registry = new SchemaRegistry(readSchemaDir(SCHEMAS_DIR));
await syncSchema(db, registry.fileSchemas());
const size = Math.round(Number(process.env.BENCH_ROWS ?? 1_000_000));
await bulkSeed(db, registry, { size, journalLines: size, log: (m) => console.log(`[seed-pg] ${m}`) });
await db.close();
process.exit(0);
