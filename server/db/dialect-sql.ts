import { sql, type ColumnDefinitionBuilder, type Expression, type Kysely, type RawBuilder } from 'kysely';
import { onPostgres } from './dialect-adapter.ts';

/**
 * The statements and SQL fragments that SQLite and PostgreSQL write differently, each named for
 * what it does and with the reason PostgreSQL needs its own shape beside it. Code outside
 * `server/db/` calls these and never tests the database kind itself (tests/architecture guards it).
 * Each takes the Kysely handle (a transaction too) or, where the SQL is built before a handle is
 * at hand (report compilation), the dialect's name.
 */
export type DialectName = 'sqlite' | 'postgres';
export type On = Kysely<any> | DialectName;

const pg = (on: On): boolean => (typeof on === 'string' ? on === 'postgres' : onPostgres(on));

/**
 * An integer primary key the database numbers itself. SQLite: `integer primary key autoincrement`
 * (never reuses an id); PostgreSQL has no AUTOINCREMENT, its own is an identity column.
 */
export function generatedKey(on: On, c: ColumnDefinitionBuilder): ColumnDefinitionBuilder {
  return pg(on) ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

interface Lockable<Q> { forUpdate(): Q; forShare(): Q; forNoKeyUpdate(): Q }

/**
 * The select, locking the rows it reads until the transaction ends (FOR UPDATE on PostgreSQL, where
 * writers run side by side). SQLite has no row locks (FOR UPDATE is a syntax error there) and needs
 * none: a write transaction is the only writer (`BEGIN IMMEDIATE`), so what it reads stays true.
 */
export function readForUpdate<Q extends Lockable<Q>>(on: On, q: Q): Q {
  return pg(on) ? q.forUpdate() : q;
}

/** The same with a shared lock (FOR SHARE): others may read and share-lock, not change, the rows. */
export function readForShare<Q extends Lockable<Q>>(on: On, q: Q): Q {
  return pg(on) ? q.forShare() : q;
}

/**
 * Takes the row locks of a select's rows without reading them here (PostgreSQL); nothing on SQLite,
 * whose write transaction is alone, so no statement is spent on it. FOR NO KEY UPDATE, not FOR UPDATE: it
 * queues the transactions that lock the same row, but not behind the KEY SHARE lock a row that links to it takes
 * when it is inserted; with FOR UPDATE, two inserts of a terminal's shift, each holding that key-share lock from
 * its own insert, waited for each other and one died a deadlock (a 500 seen in CI).
 */
export async function lockRows(on: Kysely<any>, q: Lockable<{ execute(): Promise<unknown> }>): Promise<void> {
  if (pg(on)) await q.forNoKeyUpdate().execute();
}

/**
 * Keeps writers out of a table until the transaction ends, readers let in (a snapshot summing the
 * ledger). PostgreSQL: `lock table … in share mode`; SQLite needs nothing, its writer is alone.
 */
export async function lockAgainstWriters(k: Kysely<any>, table: string): Promise<void> {
  if (pg(k)) await sql`lock table ${sql.table(table)} in share mode`.execute(k);
}

/** Whole-number division (truncating toward zero) of two integer expressions: PostgreSQL's `div`; SQLite's `/` on integers, cast back. */
export function integerDivision(on: On, x: Expression<unknown>, y: Expression<unknown>): RawBuilder<number> {
  return pg(on) ? sql<number>`div(${x}, ${y})` : sql<number>`cast((${x}) / (${y}) as integer)`;
}

/**
 * Whole days from date text `b` to date text `a` (YYYY-MM-DD…; null when either is null). PostgreSQL
 * subtracts dates; SQLite has no date type, so it subtracts Julian day numbers.
 */
export function daysBetween(on: On, a: Expression<unknown>, b: Expression<unknown>): RawBuilder<number> {
  return pg(on) ? sql<number>`(cast(${a} as date) - cast(${b} as date))` : sql<number>`cast(round(julianday(${a}) - julianday(${b})) as integer)`;
}

/** The business time zone: its IANA name and (for SQLite, which has no time zones) its offset from UTC now, in minutes. */
export interface BusinessZone { timeZone: string; offsetMinutes: number }

/**
 * The business day (YYYY-MM-DD) of an instant column: a `date` on PostgreSQL (read back as that
 * text), in the zone by name; text on SQLite, which knows no zones, by the zone's offset (Asia/Bangkok
 * has no daylight saving). Immutable on both, so it can be indexed. `key` names the expression's
 * zone (an index on it is named after it, so another zone makes another index).
 */
export function businessDate(on: On, zone: BusinessZone): { key: string; of(at: Expression<unknown>): RawBuilder<unknown> } {
  if (pg(on)) return { key: zone.timeZone, of: (at) => sql`cast(timezone(${sql.lit(zone.timeZone)}, ${at}) as date)` };
  return { key: `${zone.offsetMinutes}`, of: (at) => sql`strftime('%Y-%m-%d', ${at}, ${sql.lit(`${zone.offsetMinutes} minutes`)})` };
}

/**
 * Adds a column to a table's primary key, in the caller's transaction (existing rows get the
 * column's default). PostgreSQL alters the key in place; SQLite cannot alter a primary key, so the
 * table is copied into one made the new way (`create(name)`, with the column) and renamed; its
 * indexes go with the old table, so the caller makes them again.
 */
export async function addKeyColumn(trx: Kysely<any>, t: {
  table: string; constraint: string; column: string; columnDdl: string; key: string[]; columns: string[]; create: (name: string) => RawBuilder<unknown>;
}): Promise<void> {
  if (pg(trx)) {
    await sql`alter table ${sql.table(t.table)} add column ${sql.raw(`${t.column} ${t.columnDdl}`)}`.execute(trx);
    await sql`alter table ${sql.table(t.table)} drop constraint ${sql.id(t.constraint)}`.execute(trx);
    await sql`alter table ${sql.table(t.table)} add constraint ${sql.id(t.constraint)} primary key (${sql.join(t.key.map((c) => sql.id(c)))})`.execute(trx);
    return;
  }
  const copy = `${t.table}_new_key`;
  const cols = sql.join(t.columns.map((c) => sql.id(c)));
  await t.create(copy).execute(trx);
  await sql`insert into ${sql.table(copy)} (${cols}) select ${cols} from ${sql.table(t.table)}`.execute(trx);
  await sql`drop table ${sql.table(t.table)}`.execute(trx);
  await sql`alter table ${sql.table(copy)} rename to ${sql.table(t.table)}`.execute(trx);
}
