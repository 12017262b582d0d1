import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { Database } from './dialect-adapter.ts';

type Row = Record<string, unknown>;
/** Fills `out` with row `i`'s values, in the order of the columns given. */
export type RowGenerator = (i: number, out: unknown[]) => void;

/**
 * Generated rows written in bulk (the bench seeders: a million ledger rows), the fastest way each dialect
 * has: SQLite through a second handle on the same file, many rows per prepared statement in large
 * transactions (an in-memory database, which no second handle sees, through Kysely in batches);
 * PostgreSQL through one `insert … select from unnest(arrays)` per 20,000 rows, the next batch generated
 * while the previous one is written. `tick` hears the rows written so far.
 */
export async function insertGeneratedRows(db: Database, table: string, entity: EntitySchema, columns: string[], size: number, gen: RowGenerator, tick: (n: number) => void): Promise<void> {
  if (db.adapter.name === 'sqlite') await insertSqlite(db, table, columns, size, gen, tick);
  else await insertPostgres(db, table, entity, columns, size, gen, tick);
}

/** The planner's statistics of tables just filled in bulk (PostgreSQL's autovacuum would take them within minutes). */
export async function analyzeTables(db: Database, tables: string[]): Promise<void> {
  for (const t of tables) await sql`analyze ${sql.table(t)}`.execute(db.kysely);
}

/** Id sequences continue after rows written with explicit ids (PostgreSQL's do not follow them; SQLite has none to set). */
export async function continueIdsAfterBulk(db: Database, tables: string[]): Promise<void> {
  if (db.adapter.name !== 'postgres') return;
  for (const t of tables) await sql`select setval(pg_get_serial_sequence(${t}, 'id'), (select max(id) from ${sql.table(t)}))`.execute(db.kysely);
}

const SYSTEM_SQL_TYPES: Record<string, Record<'sqlite' | 'postgres', string>> = {
  created_at: { sqlite: 'text', postgres: 'timestamptz' },
  updated_at: { sqlite: 'text', postgres: 'timestamptz' },
  created_by: { sqlite: 'integer', postgres: 'integer' },
  updated_by: { sqlite: 'integer', postgres: 'integer' },
};

/** The SQLite file behind the connection, or null for an in-memory database. */
async function sqliteFile(db: Database): Promise<string | null> {
  const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(db.kysely);
  const main = rows.find((r) => r.name === 'main');
  return main?.file ? main.file : null;
}

async function insertSqlite(db: Database, table: string, columns: string[], size: number, gen: RowGenerator, tick: (n: number) => void): Promise<void> {
  const file = await sqliteFile(db);
  const q = (s: string) => `"${s}"`;
  if (!file) {
    // in-memory database: no second handle can see it, so go through Kysely in batches
    const batch = Math.max(1, Math.floor(30_000 / columns.length));
    for (let i = 0; i < size;) {
      const rows: Row[] = [];
      for (const end = Math.min(size, i + batch); i < end; i++) {
        const v: unknown[] = [];
        gen(i, v);
        rows.push(Object.fromEntries(columns.map((c, k) => [c, v[k]])));
      }
      await db.kysely.insertInto(table).values(rows).execute();
      tick(i);
    }
    return;
  }
  // A second handle on the same file; the app's connection is idle meanwhile (WAL lets it keep reading).
  const raw = new BetterSqlite3(file);
  try {
    raw.pragma('busy_timeout = 10000');
    raw.pragma('synchronous = OFF');
    raw.pragma('cache_size = -262144'); // 256 MB
    raw.pragma('temp_store = MEMORY');
    // several rows per statement: fewer crossings into native code
    const perStmt = 50;
    const one = `(${columns.map(() => '?').join(', ')})`;
    const head = `insert into ${q(table)} (${columns.map(q).join(', ')}) values `;
    const multi = raw.prepare(head + Array(perStmt).fill(one).join(', '));
    const single = raw.prepare(head + one);
    const params: unknown[] = new Array(perStmt * columns.length);
    const row: unknown[] = new Array(columns.length);
    const chunk = 100_000;
    const insertChunk = raw.transaction((from: number, to: number) => {
      let i = from;
      for (; i + perStmt <= to; i += perStmt) {
        for (let r = 0; r < perStmt; r++) {
          gen(i + r, row);
          for (let c = 0; c < row.length; c++) params[r * row.length + c] = row[c];
        }
        multi.run(params);
      }
      for (; i < to; i++) { gen(i, row); single.run(row); }
    });
    for (let from = 0; from < size; from += chunk) {
      const to = Math.min(size, from + chunk);
      insertChunk.immediate(from, to);
      tick(to);
    }
    raw.exec(`analyze ${q(table)}`);
    raw.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    raw.close();
  }
}

async function insertPostgres(db: Database, table: string, entity: EntitySchema, columns: string[], size: number, gen: RowGenerator, tick: (n: number) => void): Promise<void> {
  const q = (s: string) => `"${s}"`;
  const types = columns.map((c) => {
    const f = entity.fields[c];
    return f ? db.adapter.columnType(f) : SYSTEM_SQL_TYPES[c]?.postgres ?? 'text';
  });
  // unnest of one array per column: one statement, 2 + columns parameters, any number of rows
  const text = `insert into ${q(table)} (${columns.map(q).join(', ')}) select * from unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
  const batch = 20_000;
  const row: unknown[] = new Array(columns.length);
  const build = (from: number, to: number) => {
    const arrays = columns.map(() => new Array<unknown>(to - from));
    for (let i = from; i < to; i++) {
      gen(i, row);
      for (let c = 0; c < row.length; c++) arrays[c]![i - from] = row[c];
    }
    return arrays;
  };
  let pending: Promise<unknown> | null = null;
  for (let from = 0; from < size; from += batch) {
    const to = Math.min(size, from + batch);
    const arrays = build(from, to); // generated while the previous batch is being written
    if (pending) await pending;
    pending = db.kysely.executeQuery(CompiledQuery.raw(text, arrays)).then(() => tick(to));
  }
  if (pending) await pending;
  await sql.raw(`analyze ${q(table)}`).execute(db.kysely);
}

