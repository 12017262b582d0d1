import { sql, type Kysely } from 'kysely';
import { onPostgres } from './dialect-adapter.ts';

/** One table as the database's catalogue describes it: its columns (name, declared type) and the tables its foreign keys point to. */
export interface CatalogTable { name: string; columns: [string, string][]; parents: string[] }

/**
 * Every table of the live database, by name (the product's own and its bookkeeping alike). Each
 * dialect keeps its catalogue its own way: SQLite in sqlite_master and its table pragmas,
 * PostgreSQL in information_schema and pg_constraint (read in three statements, not three per table).
 */
export async function catalogTables(k: Kysely<any>): Promise<CatalogTable[]> {
  const out: CatalogTable[] = [];
  if (!onPostgres(k)) {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(k);
    for (const { name } of rows) {
      const cols = (await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${name})`.execute(k)).rows;
      const fks = (await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(k)).rows;
      out.push({ name, columns: cols.map((c) => [c.name, c.type]), parents: fks.map((f) => f.table) });
    }
    return out;
  }
  const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(k);
  const cols = (await sql<{ t: string; name: string; type: string }>`select table_name as t, column_name as name, data_type as type from information_schema.columns where table_schema = current_schema() order by table_name, ordinal_position`.execute(k)).rows;
  const fks = (await sql<{ child: string; parent: string }>`
    select distinct c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
    from pg_constraint c join pg_namespace n on n.oid = c.connamespace
    where c.contype = 'f' and n.nspname = current_schema()`.execute(k)).rows;
  const unquote = (s: string) => s.replace(/^"|"$/g, '');
  for (const { name } of rows) {
    out.push({ name, columns: cols.filter((c) => c.t === name).map((c) => [c.name, c.type]), parents: fks.filter((f) => unquote(f.child) === name).map((f) => unquote(f.parent)) });
  }
  return out;
}
