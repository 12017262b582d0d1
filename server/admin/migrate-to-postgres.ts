/**
 * npm run migrate-to-postgres -- --from data/backoffice.sqlite --to postgres://user@host:5432/db [--force]
 *
 * Copies every table of an embedded SQLite file into a PostgreSQL database
 * (tables created from the schema files first), in one transaction, then
 * verifies each table: the row count and an order-independent checksum of
 * the canonical rows must match on both sides.
 */
import { existsSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { openPostgres } from '../db/postgres/postgres-database.ts';
import { customFieldsOfSqlite, ensureCustomColumns } from '../meta/custom-fields.ts';
import { START_LOCK, type Database } from '../db/dialect-adapter.ts';
import { openSqliteSource } from './backup-source.ts';
import { loadInto } from './data-loader.ts';
import { countRows, describeSqliteFile, describeTables, readRows, TableChecksum } from './table-data.ts';

export interface TableCheck {
  table: string;
  source_rows: number;
  target_rows: number;
  source_checksum: string;
  target_checksum: string;
  ok: boolean;
}

export interface MigrationReport {
  tables: TableCheck[];
  ok: boolean;
  skippedTables: string[];
  skippedColumns: string[];
}

/** Compares every table of the SQLite file with the target, by row count and checksum over the shared columns. */
export async function verifyCopy(sqliteFile: string, target: Database): Promise<TableCheck[]> {
  const raw = new BetterSqlite3(sqliteFile, { readonly: true, fileMustExist: true });
  try {
    const targetTables = new Map((await describeTables(target)).map((t) => [t.name, t]));
    const out: TableCheck[] = [];
    for (const st of describeSqliteFile(raw)) {
      const tt = targetTables.get(st.name);
      if (!tt) continue;
      const columns = st.columns.filter((c) => tt.columns.includes(c));
      const a = new TableChecksum(columns, tt.kinds);
      for (const r of raw.prepare(`select * from "${st.name}"`).iterate() as Iterable<Record<string, unknown>>) a.add(r);
      const b = new TableChecksum(columns, tt.kinds);
      for await (const r of readRows(target.kysely, tt)) b.add(r);
      out.push({ table: st.name, source_rows: a.count, target_rows: b.count, source_checksum: a.hex, target_checksum: b.hex, ok: a.count === b.count && a.hex === b.hex });
    }
    return out;
  } finally {
    raw.close();
  }
}

/** Makes an empty database ready for the app (server/bootstrap.ts prepareDatabase): handed in by the caller, since the server's start is a layer above admin/. */
export type PrepareDatabase = (db: Database, registry: SchemaRegistry) => Promise<unknown>;

export async function migrateSqliteToPostgres(from: string, to: string, registry: SchemaRegistry, prepareDatabase: PrepareDatabase, opts: { force?: boolean; onWait?: () => void } = {}): Promise<MigrationReport> {
  if (!existsSync(from)) throw new Error(`${from} does not exist`);
  if (!/^postgres(ql)?:\/\//.test(to)) throw new Error('--to must be a postgres:// URL');
  const target = openPostgres(to);
  try {
    // under the start lock: an instance starting meanwhile waits for the copy instead of preparing the database beside it
    return await target.alone(START_LOCK, () => migrate(from, target, registry, prepareDatabase, opts), opts.onWait);
  } finally {
    await target.close();
  }
}

async function migrate(from: string, target: Database, registry: SchemaRegistry, prepareDatabase: PrepareDatabase, opts: { force?: boolean }): Promise<MigrationReport> {
  await prepareDatabase(target, registry);
  // columns added at run time (custom fields) are in no schema file: add them before the rows come
  const raw = new BetterSqlite3(from, { readonly: true, fileMustExist: true });
  try { await ensureCustomColumns(target, customFieldsOfSqlite(raw)); } finally { raw.close(); }
  const accounts = await countRows(target.kysely, registry.held('userAccounts'));
  if (accounts > 0 && !opts.force) throw new Error(`the target database already holds ${accounts} user account(s); pass --force to replace its data`);
  const source = openSqliteSource(from, false);
  let report;
  try {
    report = await loadInto(target, source, new Set());
  } finally {
    source.close();
  }
  const tables = await verifyCopy(from, target);
  return { tables, ok: tables.every((t) => t.ok), skippedTables: report.skippedTables, skippedColumns: report.skippedColumns };
}
