import BetterSqlite3 from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { readSchemaDir } from '../../server/schema-files.ts';
import { openDatabase } from '../../server/db/database-factory.ts';
import { schemaHash, syncSchema } from '../../server/db/schema-sync.ts';
import { bulkSeed, BULK_SEED_VERSION, LEDGER } from '../../seed/bulk-seed.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const SCHEMAS_DIR = join(ROOT, 'schemas');
export const BENCH_DIR = join(ROOT, 'data/bench');

/** The index the list scenario would need; only added when BENCH_EXTRA_INDEX=1, to show its effect. */
export const EXTRA_INDEX = { name: 'ix_bench_stock_movement_product_id_movement_date', sql: `create index if not exists "ix_bench_stock_movement_product_id_movement_date" on "${LEDGER}" ("product_id", "movement_date")` };

const removeDb = (file: string) => { for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true }); };

/**
 * A SQLite file with `rows` ledger rows, cached under data/bench/ by schema
 * hash, seed version and size: a second run with unchanged schemas reuses it.
 */
export async function benchDatabase(rows: number, extraIndex: boolean, log: (m: string) => void): Promise<{ file: string; registry: SchemaRegistry; seeded: boolean }> {
  const registry = new SchemaRegistry(readSchemaDir(SCHEMAS_DIR));
  const key = `stock-${schemaHash(registry.fileSchemas()).slice(0, 12)}-v${BULK_SEED_VERSION}-${rows}`;
  const file = join(BENCH_DIR, `${key}.sqlite`);
  mkdirSync(BENCH_DIR, { recursive: true });
  let seeded = false;
  if (!existsSync(file)) {
    // an old cache (other schemas or size) is 350 MB of disk per million rows: keep only the current one of this size
    for (const f of readdirSync(BENCH_DIR)) if (/^stock-.*\.sqlite(-wal|-shm)?$/.test(f) && f.endsWith(`-${rows}.sqlite`)) removeDb(join(BENCH_DIR, f));
    log(`no cached database for these schemas; seeding ${rows.toLocaleString('en-US')} rows into ${file}`);
    const tmp = `${file}.tmp`;
    removeDb(tmp);
    const db = openDatabase(tmp);
    try {
      await syncSchema(db, registry.fileSchemas());
      // as many posted journal lines as stock movements: the ledger reports' figures (issue 50 §4)
      await bulkSeed(db, registry, { size: rows, journalLines: rows, log: (m) => log(`seed: ${m}`) });
    } finally {
      await db.close();
    }
    renameSync(tmp, file); // only a complete database ever carries the final name
    seeded = true;
  } else {
    log(`using cached database ${file}`);
  }
  if (!extraIndex) return { file, registry, seeded };
  const withIndex = file.replace(/\.sqlite$/, '-ix.sqlite');
  if (!existsSync(withIndex)) {
    log(`BENCH_EXTRA_INDEX=1: copying and adding index (product_id, movement_date) -> ${withIndex}`);
    copyFileSync(file, `${withIndex}.tmp`);
    const raw = new BetterSqlite3(`${withIndex}.tmp`);
    raw.exec(EXTRA_INDEX.sql);
    raw.exec(`analyze "${LEDGER}"`);
    raw.close();
    renameSync(`${withIndex}.tmp`, withIndex);
  }
  return { file: withIndex, registry, seeded };
}

/** A product near the median row count ("a few thousand" rows at 1M), and the id range. */
export function benchFacts(file: string): { productId: number; productRows: number; maxId: number; products: number } {
  const raw = new BetterSqlite3(file, { readonly: true });
  try {
    const counts = raw.prepare(`select product_id as id, count(*) as n from "${LEDGER}" group by product_id order by n, product_id`).all() as { id: number; n: number }[];
    const mid = counts[Math.floor(counts.length / 2)]!;
    const { maxId } = raw.prepare(`select max(id) as maxId from "${LEDGER}"`).get() as { maxId: number };
    return { productId: mid.id, productRows: mid.n, maxId, products: counts.length };
  } finally {
    raw.close();
  }
}
