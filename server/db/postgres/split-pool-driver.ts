import type pg from 'pg';
import {
  PostgresDialect, PostgresDriver,
  type CompiledQuery, type DatabaseConnection, type Driver, type QueryCompiler, type QueryResult, type TransactionSettings,
} from 'kysely';

/**
 * Two pools per instance: one for transactions (every write of a record or
 * document), one for statements outside a transaction (reads, mostly).
 *
 * With one pool, writes that wait for a row lock (postings on the same
 * products, the same numbering series) keep their connections for the whole
 * wait; under load they held all ten, and every read queued behind them
 * although PostgreSQL could have answered it at once (two instances, 50
 * connections: reads' p50 about 19 ms, p99 50-57 ms, against 4 ms and
 * 16-18 ms with two pools; docs/performance.md). A read
 * now never waits for a write's connection, and writes contend with each
 * other no more than before (their pool keeps its size).
 *
 * Kysely asks for a connection before it knows whether a transaction will
 * follow, so the connection handed out is lazy: it takes a pooled client on
 * its first statement (from the statements' pool) or at `begin` (from the
 * transactions' pool).
 */
export class SplitPoolDialect extends PostgresDialect {
  readonly #pools: SplitPools;

  constructor(pools: SplitPools) {
    super({ pool: pools.transactions });
    this.#pools = pools;
  }

  override createDriver(): Driver {
    return new SplitPoolDriver(new PostgresDriver({ pool: this.#pools.statements }), new PostgresDriver({ pool: this.#pools.transactions }));
  }
}

export interface SplitPools {
  /** Statements outside a transaction: reads, and single writes such as an audit row or a file's record. */
  statements: pg.Pool;
  /** Transactions, from `begin` to `commit` or `rollback`. */
  transactions: pg.Pool;
}

class LazyConnection implements DatabaseConnection {
  #client: Promise<DatabaseConnection> | null = null;
  #from: PostgresDriver | null = null;

  constructor(private readonly statements: PostgresDriver) {}

  /** The pooled connection, taken from `driver` if none is held yet (concurrent first statements share one). */
  take(driver: PostgresDriver): Promise<DatabaseConnection> {
    if (!this.#client) {
      const taking = driver.acquireConnection();
      this.#from = driver;
      this.#client = taking;
      // a failed checkout leaves nothing to release and lets a later statement try again
      taking.catch(() => {
        if (this.#client !== taking) return;
        this.#client = null;
        this.#from = null;
      });
    }
    return this.#client;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return (await this.take(this.statements)).executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    yield* (await this.take(this.statements)).streamQuery<R>(query, chunkSize);
  }

  async release(): Promise<void> {
    const client = this.#client;
    const from = this.#from;
    this.#client = null;
    this.#from = null;
    const held = client && (await client.catch(() => null));
    if (held && from) await from.releaseConnection(held as Parameters<PostgresDriver['releaseConnection']>[0]);
  }
}

class SplitPoolDriver implements Driver {
  constructor(private readonly statements: PostgresDriver, private readonly transactions: PostgresDriver) {}

  async init(): Promise<void> {
    await this.statements.init();
    await this.transactions.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new LazyConnection(this.statements);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // a connection that already ran statements (Kysely's connection()) begins on the client it holds
    const client = await (connection as LazyConnection).take(this.transactions);
    await this.transactions.beginTransaction(client, settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.transactions.commitTransaction(await (connection as LazyConnection).take(this.transactions));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.transactions.rollbackTransaction(await (connection as LazyConnection).take(this.transactions));
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.transactions.savepoint(await (connection as LazyConnection).take(this.transactions), name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.transactions.rollbackToSavepoint(await (connection as LazyConnection).take(this.transactions), name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.transactions.releaseSavepoint(await (connection as LazyConnection).take(this.transactions), name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await (connection as LazyConnection).release();
  }

  async destroy(): Promise<void> {
    // one pool failing to end must not leave the other's connections open
    const ended = await Promise.allSettled([this.statements.destroy(), this.transactions.destroy()]);
    const failed = ended.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
