import pg from 'pg';
import { userInfo } from 'node:os';
import { Kysely, sql, type Expression, type SqlBool } from 'kysely';
import type { FieldDef } from '../../../engine/schema/schema-types.ts';
import { escapeLike, type Database, type DialectAdapter } from '../dialect-adapter.ts';
import { positive, wholeNumber } from '../../config/app-config.ts';
import { SplitPoolDialect } from './split-pool-driver.ts';
import { patientPool } from './database-reachability.ts';

/**
 * How long a request waits for an unreachable database before answering 503 DATABASE_UNAVAILABLE:
 * a restart of a few seconds goes unnoticed; kept below SHUTDOWN_TIMEOUT_MS, so a request never outlives a shutdown.
 */
function unavailableWaitMs(): number {
  const shutdown = Number(process.env.SHUTDOWN_TIMEOUT_MS) > 0 ? Number(process.env.SHUTDOWN_TIMEOUT_MS) : 10_000;
  return Math.min(positive(process.env.PG_UNAVAILABLE_WAIT_MS, 5000, 'PG_UNAVAILABLE_WAIT_MS'), Math.max(shutdown - 1000, 500));
}

// Dates stay ISO strings ('2026-11-21'), as the API speaks them; int8 is our scaled money.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export const postgresAdapter: DialectAdapter = {
  name: 'postgres',
  returnsDates: true,
  columnType(field: FieldDef) {
    switch (field.type) {
      case 'integer': case 'link': return 'integer';
      case 'money': case 'decimal': return 'bigint';
      case 'boolean': return 'smallint';
      case 'date': return 'date';
      case 'datetime': return 'timestamptz';
      case 'json': return 'jsonb';
      default: return 'text';
    }
  },
  contains: (col: Expression<unknown>, value: string) => sql<SqlBool>`strpos(${col}::text, ${value}) > 0`,
  icontains: (col: Expression<unknown>, value: string) => sql<SqlBool>`${col}::text ilike ${`%${escapeLike(value)}%`} escape '\\'`,
  startsWith: (col: Expression<unknown>, value: string) => sql<SqlBool>`starts_with(${col}::text, ${value})`,
  uniqueViolation(err) {
    const e = err as { code?: string; constraint?: string };
    return e?.code === '23505' ? { index: e.constraint ?? null } : null;
  },
  isForeignKeyViolation: (err) => (err as { code?: string })?.code === '23503',
  async indexNames(k, table) {
    const { rows } = await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = ${table}`.execute(k);
    return rows.map((r) => r.name);
  },
  async columnNames(k, table) {
    const { rows } = await sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(k);
    return rows.map((r) => r.name);
  },
};

/**
 * An advisory lock held by a transaction on a connection of its own, outside both pools: the work
 * needs their connections (a pool of one would wait for itself), and ending the transaction or the
 * connection releases the lock, also when this instance dies halfway.
 */
async function alone<T>(url: string, name: string, work: () => Promise<T>, onWait?: () => void): Promise<T> {
  // keepalive probes from 30 s on: the session sits idle while the work runs, which a firewall or NAT may take for a
  // dead connection long before the system's default first probe (two hours)
  const session = new pg.Client({ connectionString: withDefaultUser(url), keepAlive: true, keepAliveInitialDelayMillis: 30_000 });
  session.on('error', () => undefined); // a lost lock session surfaces as the work's own connection errors
  await session.connect();
  // No statement here takes parameters: a parameterised statement leaves its portal, and with it a snapshot, open
  // until the transaction ends, which would hold back vacuum across the cluster for as long as a start (or a long
  // seed or migration) runs. Literals keep every statement on the simple protocol.
  const lockName = session.escapeLiteral(name);
  try {
    // a transaction-level lock in a transaction kept open for the work: a pooler in transaction mode (PgBouncer) keeps
    // one server connection for a transaction, but hands a session's lock on to whichever client gets that connection next
    await session.query('begin');
    // an operator's timeouts for the database or role (statement_timeout, lock_timeout, idle_in_transaction_session_timeout)
    // are meant for the application's statements: this transaction waits as long as another start takes, then sits idle
    // while its own runs, and a timeout would end the exclusion (a failed start, or the lock let go too early). Only the
    // settings this server version knows are set (idle_session_timeout is PostgreSQL 14's), for this transaction only.
    await session.query(`select set_config(name, '0', true) from pg_settings
      where name in ('statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout', 'idle_session_timeout')`);
    const { rows } = await session.query<{ got: boolean }>(`select pg_try_advisory_xact_lock(hashtext(${lockName})) as got`);
    if (!rows[0]!.got) {
      onWait?.();
      await session.query(`select pg_advisory_xact_lock(hashtext(${lockName}))`);
    }
    return await work();
  } finally {
    await session.query('rollback').catch(() => undefined);
    await session.end().catch(() => undefined);
  }
}

/** Like psql, a URL without a user name connects as the operating-system user (pg itself reads only $USER). */
export function withDefaultUser(url: string): string {
  const u = new URL(url);
  if (!u.username) u.username = process.env.PGUSER ?? userInfo().username;
  return u.toString();
}

/** Connections per instance: transactions (PG_POOL_SIZE) and statements outside one (PG_READ_POOL_SIZE), 10 each. */
export interface PoolSizes { transactions: number; statements: number }

/**
 * How long one statement may run and wait for a lock (PG_STATEMENT_TIMEOUT_MS, 30 s; PG_LOCK_TIMEOUT_MS, 10 s;
 * 0 turns one off): past them PostgreSQL cancels the statement, the transaction rolls back and the request answers
 * 503 DATABASE_TIMEOUT, so no request and no connection waits forever on a stuck lock or a runaway query.
 * Sent as connection parameters, so they cost no statement per transaction.
 */
export function statementLimits(env: NodeJS.ProcessEnv = process.env): { statement_timeout?: number; lock_timeout?: number } {
  const statement = wholeNumber(env.PG_STATEMENT_TIMEOUT_MS, 30_000, 'PG_STATEMENT_TIMEOUT_MS');
  const lock = wholeNumber(env.PG_LOCK_TIMEOUT_MS, 10_000, 'PG_LOCK_TIMEOUT_MS');
  return { ...(statement ? { statement_timeout: statement } : {}), ...(lock ? { lock_timeout: lock } : {}) };
}

export function openPostgres(url: string, sizes: PoolSizes = { transactions: positive(process.env.PG_POOL_SIZE, 10, 'PG_POOL_SIZE'), statements: positive(process.env.PG_READ_POOL_SIZE, 10, 'PG_READ_POOL_SIZE') }): Database {
  const limits = statementLimits();
  const open = (max: number) => {
    // a restart or outage of the database: checkouts wait for it up to PG_UNAVAILABLE_WAIT_MS, then 503
    const pool = patientPool({ connectionString: withDefaultUser(url), max, ...limits }, unavailableWaitMs());
    // an idle client can lose its connection (server restart, admin terminate); the pool replaces it,
    // but an unhandled 'error' event would take the process down
    pool.on('error', (err) => console.error(`[backoffice] PostgreSQL connection lost: ${err.message}`));
    return pool;
  };
  const kysely = new Kysely<any>({ dialect: new SplitPoolDialect({ transactions: open(sizes.transactions), statements: open(sizes.statements) }) });
  return { kysely, adapter: postgresAdapter, close: () => kysely.destroy(), alone: (name, work, onWait) => alone(url, name, work, onWait) };
}
