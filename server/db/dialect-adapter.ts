import { PostgresAdapter, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { FieldDef } from '../../engine/schema/schema-types.ts';

/**
 * Everything that differs between SQLite and PostgreSQL lives behind this
 * interface; the rest of the server builds dialect-agnostic Kysely queries.
 */
export interface DialectAdapter {
  readonly name: 'sqlite' | 'postgres';
  /** SQL column type for a field (money/decimal are scaled integers, booleans 0/1). */
  columnType(field: FieldDef): 'text' | 'integer' | 'bigint' | 'smallint' | 'date' | 'timestamptz' | 'jsonb';
  /** Case-sensitive substring test. */
  contains(column: Expression<unknown>, value: string): Expression<SqlBool>;
  /** Case-insensitive substring test (Thai has no case; Latin letters fold). */
  icontains(column: Expression<unknown>, value: string): Expression<SqlBool>;
  startsWith(column: Expression<unknown>, value: string): Expression<SqlBool>;
  /** The index name of a unique violation, or null when the error is something else. */
  uniqueViolation(err: unknown): { index: string | null } | null;
  isForeignKeyViolation(err: unknown): boolean;
  /** Names of the indexes on a table (to rename derived indexes when the table is renamed). */
  indexNames(k: Kysely<any>, table: string): Promise<string[]>;
  /** Names of a table's columns; none when the table does not exist (start-up migrations of tables that are not entities). */
  columnNames(k: Kysely<any>, table: string): Promise<string[]>;
  /** Values as the driver hands them back (pg: Date for timestamptz, string for bigint). */
  readonly returnsDates: boolean;
}

export interface Database {
  readonly kysely: Kysely<any>;
  readonly adapter: DialectAdapter;
  close(): Promise<void>;
  /**
   * Runs `work` while holding a lock every server on the same database waits for, so instances
   * starting together prepare the database one after another (the later ones find it done).
   * `onWait` is called when another holds it, so the wait can be told in the log.
   */
  alone<T>(name: string, work: () => Promise<T>, onWait?: () => void): Promise<T>;
}

/** The lock under which a database is prepared (server starts, migrations into PostgreSQL, bulk seeding): Database.alone. */
export const START_LOCK = 'backoffice:bootstrap';

/** Escapes LIKE wildcards so user text is matched literally (paired with ESCAPE '\'). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Whether a Kysely handle (a transaction included, which carries no Database) talks to PostgreSQL: for the few
 * statements written differently there, such as a posting's ledger rows riding in its balance statement.
 */
export function onPostgres(k: Kysely<any>): boolean {
  return k.getExecutor().adapter instanceof PostgresAdapter;
}
