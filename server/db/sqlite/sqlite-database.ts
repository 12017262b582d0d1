import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, SqliteDriver, CompiledQuery, sql, type DatabaseConnection, type Expression, type SqlBool } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FieldDef } from '../../../engine/schema/schema-types.ts';
import { escapeLike, type Database, type DialectAdapter } from '../dialect-adapter.ts';

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
 */
function withStatementCache(db: BetterSqlite3.Database) {
  const cache = new Map<string, CachedStatement>();
  return {
    prepare(text: string) {
      let stmt = cache.get(text);
      if (stmt) {
        // refresh recency so the hot statements stay
        cache.delete(text);
        cache.set(text, stmt);
        return stmt;
      }
      const prepared = db.prepare(text);
      // a table created, altered or dropped (custom fields, schema sync) changes what cached statements answer
      if (DDL.test(text)) {
        cache.clear();
        return prepared as unknown as CachedStatement;
      }
      stmt = cachedStatement(prepared);
      cache.set(text, stmt);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      return stmt;
    },
    close() {
      cache.clear();
      db.close();
    },
  };
}

/**
 * First come, first served: unlock hands the connection straight to the
 * longest waiter. Kysely's own SQLite mutex wakes every waiter on every
 * release (each then waits again), which costs CPU in proportion to the queue
 * on every query, and lets a newcomer overtake requests already waiting: under
 * 200 connections some requests waited more than 10 s.
 */
export class FairMutex {
  private held = false;
  private readonly waiters: (() => void)[] = [];

  lock(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  unlock(): void {
    const next = this.waiters.shift();
    // handed over while still held, so nobody can slip in between
    if (next) next();
    else this.held = false;
  }

  /** How many callers wait for the lock. */
  get queued(): number {
    return this.waiters.length;
  }

  get isHeld(): boolean {
    return this.held;
  }
}


/**
 * The server's one SQLite connection, shared in turn (the fair mutex above; Kysely's then
 * never waits). Writers take the lock at BEGIN, so two writers never deadlock upgrading a
 * read lock. One connection in one process means writers never meet SQLITE_BUSY from each
 * other: they wait in this queue, not in SQLite's busy handler.
 *
 * Another process on the same file (the other workers of SERVER_WORKERS, a backup tool) may
 * hold the write lock. SQLite's busy handler would wait for it inside this process's only
 * thread, so every request of the process would stand still for the other's whole
 * transaction. BEGIN is therefore tried without waiting; while the lock is taken, the
 * connection goes back to the queue (reads go on) and BEGIN is tried again after a short
 * pause, for up to the busy timeout (SQLITE_BUSY_TIMEOUT_MS), then answers SQLITE_BUSY as the busy handler
 * would have (the API answers 503 DATABASE_BUSY).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  private readonly turn = new FairMutex();
  /**
   * Held from BEGIN to COMMIT or ROLLBACK: while one transaction of this process waits for
   * another process's lock, the next ones wait here for it instead of each asking SQLite too.
   */
  private readonly writer = new FairMutex();
  /** This connection's turn belongs to the writer's holder (set once it holds both). */
  private writing = false;
  private readonly begin: () => boolean;

  constructor(cfg: ConstructorParameters<typeof SqliteDialect>[0], raw: BetterSqlite3.Database, private readonly busyTimeoutMs: number) {
    super(cfg);
    const begin = raw.prepare('begin immediate');
    this.begin = () => {
      // a PRAGMA acts when it is prepared, so these cannot be kept as statements
      raw.pragma('busy_timeout = 0');
      // a refusal is expected here and retried: its error needs no stack
      const depth = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        begin.run();
        return true;
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_BUSY') return false;
        throw err;
      } finally {
        Error.stackTraceLimit = depth;
        raw.pragma(`busy_timeout = ${busyTimeoutMs}`);
      }
    };
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.turn.lock();
    return super.acquireConnection();
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection();
    this.turn.unlock();
  }

  override async beginTransaction(): Promise<void> {
    if (!this.writer.isHeld) {
      await this.writer.lock();
    } else {
      // another transaction of this process waits for the lock: queue behind it, connection given back meanwhile
      await this.releaseConnection();
      await this.writer.lock();
      await this.acquireConnection();
    }
    this.writing = true;
    try {
      await this.takeWriteLock();
    } catch (err) {
      this.endWrite();
      throw err;
    }
  }

  private endWrite(): void {
    if (!this.writing) return;
    this.writing = false;
    this.writer.unlock();
  }

  private async takeWriteLock(): Promise<void> {
    if (this.begin()) return;
    const deadline = Date.now() + this.busyTimeoutMs;
    for (let pause = 1; ; pause = Math.min(pause * 2, 20)) {
      // the connection is the same object when it comes back: the transaction goes on with it
      await this.releaseConnection();
      await new Promise((r) => setTimeout(r, pause));
      await this.acquireConnection();
      if (this.begin()) return;
      if (Date.now() >= deadline) {
        throw Object.assign(new Error('database is locked (another process held the write lock longer than the wait allows)'), { code: 'SQLITE_BUSY' });
      }
    }
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.commitTransaction(connection);
    } finally {
      // a failed COMMIT is followed by a ROLLBACK on the same turn: the next writer has not begun yet
      this.endWrite();
    }
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } finally {
      this.endWrite();
    }
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly cfg: ConstructorParameters<typeof SqliteDialect>[0], private readonly raw: BetterSqlite3.Database, private readonly busyTimeoutMs: number) {
    super(cfg);
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.cfg, this.raw, this.busyTimeoutMs);
  }
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
  const read = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, not "${raw}"`);
    return Number(raw);
  };
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
  const db: Database = { kysely, adapter: sqliteAdapter, close: () => kysely.destroy() };
  handles.set(db, raw);
  return db;
}
