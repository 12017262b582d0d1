import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql, type Expression, type SqlBool } from 'kysely';
import { LRUCache } from 'lru-cache';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FieldDef } from '../../../engine/schema/schema-types.ts';
import { escapeLike, type Database, type DialectAdapter } from '../dialect-adapter.ts';
import { ImmediateSqliteDialect } from './sqlite-driver.ts';
import { wholeNumber } from '../../config/app-config.ts';

const STATEMENT_CACHE_SIZE = 1000;
const DDL = /^\s*(create|alter|drop)\s/i;

type Params = unknown[];
/** What Kysely's SQLite connection uses of a statement. */
interface CachedStatement {
  reader: boolean;
  all(params: Params): unknown[];
  run(params: Params): BetterSqlite3.RunResult;
  iterate(params: Params): IterableIterator<unknown>;
}

/**
 * Builds rows with one object literal per statement instead of letting the
 * driver add each column to a fresh object: the rows of a list (30 columns
 * and more) then share one hidden class, and reading 50 product rows costs
 * about 40 % less. The same keys in the same order, the same values.
 */
export function rowShaper(names: string[]): ((values: unknown[]) => Record<string, unknown>) | null {
  // "__proto__" in a literal would set the prototype rather than a key: leave such a statement to the driver
  if (names.includes('__proto__')) return null;
  // names are quoted as JSON strings, so whatever SQL named a column cannot escape the literal
  return new Function('v', `return {${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')}};`) as (values: unknown[]) => Record<string, unknown>;
}

function cachedStatement(stmt: BetterSqlite3.Statement): CachedStatement {
  if (!stmt.reader) return stmt as unknown as CachedStatement;
  const names = () => stmt.columns().map((c) => c.name);
  const first = names();
  let width = first.length;
  let shape = rowShaper(first);
  if (!shape) return stmt as unknown as CachedStatement;
  stmt.raw(true);
  // a table changed by another process makes SQLite re-prepare the statement with other columns: shape again
  const fit = (values: unknown[]) => {
    if (values.length !== width) {
      width = values.length;
      shape = rowShaper(names()) ?? shape;
    }
    return shape!;
  };
  return {
    reader: true,
    all: (params) => {
      const rows = stmt.all(params) as unknown[][];
      if (!rows.length) return rows;
      const make = fit(rows[0]!);
      return rows.map(make);
    },
    run: (params) => stmt.run(params),
    *iterate(params) { for (const values of stmt.iterate(params) as IterableIterator<unknown[]>) yield fit(values)(values); },
  };
}

/**
 * Kysely's SQLite driver prepares every query afresh. Preparing is a large
 * share of a simple query's cost, so statements are kept by their SQL text.
 * lru-cache rather than a Map re-inserted on every hit: with a few hundred
 * statements kept, a Map's delete and set cost about 1 µs per query (its table
 * is compacted over and over), lru-cache's get about 0.05 µs.
 */
function withStatementCache(db: BetterSqlite3.Database) {
  const cache = new LRUCache<string, CachedStatement>({ max: STATEMENT_CACHE_SIZE });
  return {
    prepare(text: string) {
      let stmt = cache.get(text);
      if (stmt) return stmt;
      const prepared = db.prepare(text);
      // a table created, altered or dropped (custom fields, schema sync) changes what cached statements answer
      if (DDL.test(text)) {
        cache.clear();
        return prepared as unknown as CachedStatement;
      }
      stmt = cachedStatement(prepared);
      cache.set(text, stmt);
      return stmt;
    },
    close() {
      cache.clear();
      db.close();
    },
  };
}

export const sqliteAdapter: DialectAdapter = {
  name: 'sqlite',
  returnsDates: false,
  columnType(field: FieldDef) {
    switch (field.type) {
      case 'integer': case 'link': case 'boolean': case 'money': case 'decimal': return 'integer';
      default: return 'text';
    }
  },
  contains: (col: Expression<unknown>, value: string) => sql<SqlBool>`instr(${col}, ${value}) > 0`,
  icontains: (col: Expression<unknown>, value: string) => sql<SqlBool>`lower(${col}) like ${`%${escapeLike(value.toLowerCase())}%`} escape '\\'`,
  startsWith: (col: Expression<unknown>, value: string) => sql<SqlBool>`substr(${col}, 1, length(${value})) = ${value}`,
  uniqueViolation(err) {
    const e = err as { code?: string; message?: string };
    if (e?.code !== 'SQLITE_CONSTRAINT_UNIQUE' && e?.code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return null;
    // "UNIQUE constraint failed: customer.code" (a partial index reports its name instead: "index 'ux_customer_code'")
    const byIndex = /index '([^']+)'/.exec(e.message ?? '');
    if (byIndex) return { index: byIndex[1]! };
    const cols = /failed: (.+)$/.exec(e.message ?? '')?.[1]?.split(', ').map((c) => c.split('.')) ?? [];
    if (!cols.length) return { index: null };
    return { index: `ux_${cols[0]![0]}_${cols.map((c) => c[1]).join('_')}` };
  },
  // ON DELETE RESTRICT reports as SQLITE_CONSTRAINT_TRIGGER, other foreign key failures as ..._FOREIGNKEY
  async indexNames(k, table) {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(k);
    return rows.map((r) => r.name);
  },
  async columnNames(k, table) {
    const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(k);
    return rows.map((r) => r.name);
  },
  isForeignKeyViolation: (err) => {
    const e = err as { code?: string; message?: string };
    return e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || (!!e?.code?.startsWith('SQLITE_CONSTRAINT') && /FOREIGN KEY constraint failed/.test(e.message ?? ''));
  },
};

export interface SqliteSettings {
  /** Page cache per connection in MiB (SQLite's default is 2 MiB). */
  cacheMb: number;
  /** Memory-mapped I/O in MiB; 0 turns it off. */
  mmapMb: number;
  /** How long a write waits for a lock another process holds before answering DATABASE_BUSY. */
  busyTimeoutMs: number;
}

/**
 * SQLITE_CACHE_MB (default 64) and SQLITE_MMAP_MB (default 256). With SQLite's
 * 2 MiB default cache, a table larger than the cache re-reads its pages on every
 * query (the generic list ran at 0.43× a hand-written route; 2.5× faster with a
 * 64 MiB cache). Both are ceilings, filled only as pages are read.
 * SQLITE_BUSY_TIMEOUT_MS (default 5000): the wait for another process's write lock.
 */
export function sqliteSettings(env: NodeJS.ProcessEnv = process.env): SqliteSettings {
  const read = (name: string, fallback: number) => wholeNumber(env[name], fallback, name);
  return { cacheMb: read('SQLITE_CACHE_MB', 64), mmapMb: read('SQLITE_MMAP_MB', 256), busyTimeoutMs: read('SQLITE_BUSY_TIMEOUT_MS', 5000) };
}

/** The connection settings every SQLite handle of the server uses (the bench's hand-written route too). */
export function applySqlitePragmas(raw: BetterSqlite3.Database, s: SqliteSettings = sqliteSettings()): void {
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma(`busy_timeout = ${s.busyTimeoutMs}`);
  raw.pragma('synchronous = NORMAL');
  raw.pragma(`cache_size = ${-s.cacheMb * 1024}`);
  raw.pragma(`mmap_size = ${s.mmapMb * 1024 * 1024}`);
  raw.pragma('temp_store = MEMORY');
}

const handles = new WeakMap<Database, BetterSqlite3.Database>();
/** The better-sqlite3 connection behind a SQLite Database (online backups use its backup API). */
export function sqliteHandle(db: Database): BetterSqlite3.Database | undefined {
  return handles.get(db);
}

export function openSqlite(file: string, settings: SqliteSettings = sqliteSettings()): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const raw = new BetterSqlite3(file);
  applySqlitePragmas(raw, settings);
  const kysely = new Kysely<any>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(raw) as never }, raw, settings.busyTimeoutMs) });
  // alone runs at once: SERVER_WORKERS starts its other workers only after the first one listens
  // (server/ops/server-workers.ts), and separate servers do not share one SQLite file
  const db: Database = { kysely, adapter: sqliteAdapter, close: () => kysely.destroy(), alone: (_name, work) => work() };
  handles.set(db, raw);
  return db;
}
