import type BetterSqlite3 from 'better-sqlite3';
import { SqliteDialect, SqliteDriver, type CompiledQuery, type DatabaseConnection, type QueryResult } from 'kysely';

/**
 * Statements that take SQLite's write lock. Run outside a transaction, such a statement would
 * wait for another process's lock in SQLite's busy handler, inside this process's only thread.
 * Pragmas, VACUUM and transaction control are left as they are (several cannot run in a transaction).
 */
const WRITES = /^\s*(insert|update|delete|replace|create|alter|drop)\b|^\s*with\b[\s\S]*\b(insert|update|delete)\b/i;

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
 * would have (the API answers 503 DATABASE_BUSY). A write outside a transaction (a session
 * saved at sign-in, a file's record, a table created at start) runs as a transaction of its own
 * for the same reason.
 */
export class ImmediateSqliteDriver extends SqliteDriver {
  private readonly turn = new FairMutex();
  /**
   * Held from BEGIN to COMMIT or ROLLBACK: while one transaction of this process waits for
   * another process's lock, the next ones wait here for it instead of each asking SQLite too.
   */
  private readonly writer = new FairMutex();
  /** This connection's turn belongs to the writer's holder (set once it holds both). */
  private writing = false;
  private readonly begin: () => boolean;

  constructor(cfg: ConstructorParameters<typeof SqliteDialect>[0], private readonly raw: BetterSqlite3.Database, private readonly busyTimeoutMs: number) {
    super(cfg);
    const begin = raw.prepare('begin immediate');
    this.begin = () => {
      // a PRAGMA acts when it is prepared, so these cannot be kept as statements; exec rather than
      // pragma(), which also makes a statement object and reads its rows: about 1.4 µs for the pair against 6.6 µs
      raw.exec('PRAGMA busy_timeout = 0');
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
        raw.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
      }
    };
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.turn.lock();
    const inner = await super.acquireConnection();
    // Kysely's SQLite driver has one connection for its whole life, so one wrapper serves every turn
    this.guarded ??= {
      executeQuery: <R>(q: CompiledQuery) => this.execute<R>(inner, q),
      streamQuery: <R>(q: CompiledQuery, chunkSize?: number) => inner.streamQuery<R>(q, chunkSize),
    };
    return this.guarded;
  }

  private guarded?: DatabaseConnection;

  private async execute<R>(inner: DatabaseConnection, q: CompiledQuery): Promise<QueryResult<R>> {
    // inside a transaction (this driver's, or one a caller began with raw SQL) the lock is held already
    if (this.writing || this.raw.inTransaction || !WRITES.test(q.sql)) return inner.executeQuery<R>(q);
    await this.beginTransaction();
    let result: QueryResult<R>;
    try {
      result = await inner.executeQuery<R>(q);
    } catch (err) {
      await this.rollbackTransaction(inner);
      throw err;
    }
    try {
      await this.commitTransaction(inner);
    } catch (err) {
      await this.rollbackTransaction(inner).catch(() => undefined);
      throw err;
    }
    return result;
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
      // SQLite rolls a transaction back by itself on some errors (SQLITE_FULL on a full disk, SQLITE_IOERR):
      // a ROLLBACK then fails ("no transaction is active") and its error would hide the real one
      if (this.raw.inTransaction) await super.rollbackTransaction(connection);
    } finally {
      this.endWrite();
    }
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly cfg: ConstructorParameters<typeof SqliteDialect>[0], private readonly raw: BetterSqlite3.Database, private readonly busyTimeoutMs: number) {
    super(cfg);
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.cfg, this.raw, this.busyTimeoutMs);
  }
}

