import { createHash } from 'node:crypto';
import { sql, type Kysely, type CreateTableBuilder } from 'kysely';
import type { EntitySchema, FieldDef } from '../../engine/schema/schema-types.ts';
import { hasColumn, softDeleteColumn } from '../../engine/schema/schema-types.ts';
import type { Database } from './dialect-adapter.ts';

/** Bumped when the way schemas map to tables changes, so existing databases are re-synced. */
const SYNC_FORMAT = 2; // 2: an index on every numbering field
const STATE_TABLE = 'schema_state';
export const INTERNAL_TABLES = new Set([STATE_TABLE, 'schema_override', 'numbering_counter', 'sqlite_sequence', 'user_credential', 'revoked_token', 'system_log', 'file_upload', 'print_counter', 'etax_file', 'custom_field', 'pos_supervisor_pin', 'pos_supervisor_pin_lock']);

export interface SyncReport {
  skipped: boolean;
  created: string[];
  addedColumns: string[];
  renamed: string[];
  createdIndexes: string[];
  /**
   * Unique indexes a schema asks for that rows already break (two rows with one value): not created, so the start
   * goes on with the data as it is, and asked for again at every start until the rows are mended (the schema's
   * hash is not stored while one is held back). `duplicates`: a few of the values held twice, as `col=value (n rows)`.
   */
  heldBackIndexes: { index: string; table: string; columns: string[]; duplicates: string[] }[];
  /** Columns and tables in the database that no schema describes; never dropped automatically. */
  orphanColumns: string[];
  orphanTables: string[];
}

export function schemaHash(entities: EntitySchema[]): string {
  const sorted = [...entities].sort((a, b) => a.name.localeCompare(b.name));
  return createHash('sha256').update(JSON.stringify({ SYNC_FORMAT, sorted })).digest('hex');
}

interface PlannedColumn { name: string; field: FieldDef | null; sqlType: string; references?: { table: string; onDelete: string }; notNull?: boolean; defaultValue?: number }

function plannedColumns(e: EntitySchema, db: Database): PlannedColumn[] {
  const cols: PlannedColumn[] = [];
  if (e.parent) cols.push({ name: e.parent.field, field: null, sqlType: 'integer', references: { table: e.parent.entity, onDelete: 'cascade' }, notNull: true });
  if (e.kind === 'lines') cols.push({ name: 'line_no', field: null, sqlType: 'integer', notNull: true, defaultValue: 0 });
  for (const [name, f] of Object.entries(e.fields)) {
    if (!hasColumn(f)) continue;
    const col: PlannedColumn = { name, field: f, sqlType: db.adapter.columnType(f) };
    if (f.type === 'link') col.references = { table: f.entity!, onDelete: f.onDelete === 'set_null' ? 'set null' : f.onDelete ?? 'restrict' };
    cols.push(col);
  }
  const ts = db.adapter.name === 'postgres' ? 'timestamptz' : 'text';
  cols.push({ name: 'created_at', field: null, sqlType: ts }, { name: 'created_by', field: null, sqlType: 'integer' },
    { name: 'updated_at', field: null, sqlType: ts }, { name: 'updated_by', field: null, sqlType: 'integer' });
  const soft = softDeleteColumn(e);
  if (soft) cols.push({ name: soft, field: null, sqlType: 'smallint', notNull: true, defaultValue: 0 });
  return cols;
}

/** Parents and link targets first, so most foreign keys can be declared inline. */
function orderByDependencies(entities: EntitySchema[]): EntitySchema[] {
  const byName = new Map(entities.map((e) => [e.name, e]));
  const done = new Set<string>();
  const out: EntitySchema[] = [];
  const visit = (e: EntitySchema, stack: Set<string>) => {
    if (done.has(e.name) || stack.has(e.name)) return;
    stack.add(e.name);
    const deps = [e.parent?.entity, ...Object.values(e.fields).filter((f) => f.type === 'link').map((f) => f.entity)];
    for (const d of deps) { const t = d && byName.get(d); if (t) visit(t, stack); }
    stack.delete(e.name);
    done.add(e.name);
    out.push(e);
  };
  for (const e of entities) visit(e, new Set());
  return out;
}

function addColumnDef(builder: CreateTableBuilder<string, string>, col: PlannedColumn): CreateTableBuilder<string, string> {
  return builder.addColumn(col.name, sql.raw(col.sqlType), (c) => {
    let cb = c;
    if (col.notNull) cb = cb.notNull();
    if (col.defaultValue !== undefined) cb = cb.defaultTo(col.defaultValue);
    if (col.references) cb = cb.references(`${col.references.table}.id`).onDelete(col.references.onDelete as 'cascade');
    return cb;
  });
}

async function readState(k: Kysely<any>, key: string): Promise<string | undefined> {
  const row = await k.selectFrom(STATE_TABLE).select('value').where('key', '=', key).executeTakeFirst();
  return row?.value as string | undefined;
}

async function writeState(k: Kysely<any>, key: string, value: string): Promise<void> {
  await k.deleteFrom(STATE_TABLE).where('key', '=', key).execute();
  await k.insertInto(STATE_TABLE).values({ key, value }).execute();
}

/**
 * Brings the database up to the schema files: creates missing tables, columns
 * and indexes, applies renames, and reports orphans. It never drops anything.
 * Skips all work when the schema hash matches the last successful sync.
 */
export async function syncSchema(db: Database, entities: EntitySchema[], opts: { force?: boolean } = {}): Promise<SyncReport> {
  const report: SyncReport = { skipped: false, created: [], addedColumns: [], renamed: [], createdIndexes: [], heldBackIndexes: [], orphanColumns: [], orphanTables: [] };
  const k = db.kysely;
  await k.schema.createTable(STATE_TABLE).ifNotExists().addColumn('key', 'text', (c) => c.primaryKey()).addColumn('value', 'text').execute();
  const hash = schemaHash(entities);
  if (!opts.force && (await readState(k, 'hash')) === hash) return { ...report, skipped: true };

  await k.transaction().execute(async (trx) => {
    const tables = new Map<string, Set<string>>();
    for (const t of await trx.introspection.getTables()) tables.set(t.name, new Set(t.columns.map((c) => c.name)));
    const deferred: { table: string; col: PlannedColumn }[] = [];

    for (const e of orderByDependencies(entities)) {
      const cols = plannedColumns(e, db);
      if (!tables.has(e.name)) {
        const old = e.renamedFrom?.find((n) => tables.has(n));
        if (old) {
          await trx.schema.alterTable(old).renameTo(e.name).execute();
          // indexes are named after their table (ux_<table>_<cols>, how a 409 finds its field): drop the old
          // names here, and the index step below creates them under the new one. Indexes hold no data.
          for (const ix of await db.adapter.indexNames(trx, e.name)) {
            if (ix.startsWith(`ux_${old}_`) || ix.startsWith(`ix_${old}_`)) await sql`drop index if exists ${sql.id(ix)}`.execute(trx);
          }
          tables.set(e.name, tables.get(old)!);
          tables.delete(old);
          report.renamed.push(`${old} -> ${e.name}`);
        }
      }
      if (!tables.has(e.name)) {
        let builder = trx.schema.createTable(e.name).addColumn('id', 'integer', (c) =>
          db.adapter.name === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
        for (const col of cols) {
          const target = col.references?.table;
          if (target && target !== e.name && !tables.has(target)) { deferred.push({ table: e.name, col }); continue; }
          builder = addColumnDef(builder, col);
        }
        await builder.execute();
        tables.set(e.name, new Set(['id', ...cols.map((c) => c.name)]));
        report.created.push(e.name);
        continue;
      }
      const existing = tables.get(e.name)!;
      for (const col of cols) {
        if (existing.has(col.name)) continue;
        const old = col.field?.renamedFrom?.find((n) => existing.has(n));
        if (old) {
          await trx.schema.alterTable(e.name).renameColumn(old, col.name).execute();
          existing.delete(old);
          existing.add(col.name);
          report.renamed.push(`${e.name}.${old} -> ${e.name}.${col.name}`);
          continue;
        }
        deferred.push({ table: e.name, col: { ...col, notNull: col.notNull && col.defaultValue !== undefined } });
      }
    }
    for (const { table, col } of deferred) {
      await trx.schema.alterTable(table).addColumn(col.name, sql.raw(col.sqlType), (c) => {
        let cb = c;
        if (col.notNull) cb = cb.notNull();
        if (col.defaultValue !== undefined) cb = cb.defaultTo(col.defaultValue);
        if (col.references) cb = cb.references(`${col.references.table}.id`).onDelete(col.references.onDelete as 'cascade');
        return cb;
      }).execute();
      tables.get(table)!.add(col.name);
      report.addedColumns.push(`${table}.${col.name}`);
    }

    for (const e of entities) {
      const existing = new Set(await db.adapter.indexNames(trx, e.name));
      for (const ix of indexesOf(e)) {
        if (ix.unique && !existing.has(ix.name)) {
          const duplicates = await duplicatesOf(trx, e.name, ix.columns, ix.where);
          if (duplicates.length) { report.heldBackIndexes.push({ index: ix.name, table: e.name, columns: ix.columns, duplicates }); continue; }
        }
        await sql.raw(ix.sql).execute(trx);
        report.createdIndexes.push(ix.name);
      }
      const known = new Set(['id', ...plannedColumns(e, db).map((c) => c.name)]);
      for (const c of tables.get(e.name) ?? []) if (!known.has(c)) report.orphanColumns.push(`${e.name}.${c}`);
    }
    const names = new Set(entities.map((e) => e.name));
    for (const t of tables.keys()) if (!names.has(t) && !INTERNAL_TABLES.has(t)) report.orphanTables.push(t);
    // a held-back index is asked for again at the next start, once its rows may have been mended
    if (!report.heldBackIndexes.length) await writeState(trx, 'hash', hash);
  });
  return report;
}

/** A few values more than one row holds where a unique index would allow one (the rows its `where` counts). */
async function duplicatesOf(trx: Kysely<any>, table: string, columns: string[], where: string): Promise<string[]> {
  const q = (c: string) => `"${c}"`;
  const cols = columns.map(q).join(', ');
  const { rows } = await sql.raw<Record<string, unknown>>(`select ${cols}, count(*) as n from ${q(table)}${where} group by ${cols} having count(*) > 1 limit 5`).execute(trx);
  return rows.map((r) => `${columns.map((c) => `${c}=${r[c] === null ? 'null' : String(r[c])}`).join(', ')} (${Number(r.n)} rows)`);
}

/** Index names are derived from table and columns, so a unique violation can be traced back to its field. */
export function uniqueIndexName(table: string, columns: string[]): string {
  return `ux_${table}_${columns.join('_')}`;
}

function indexesOf(e: EntitySchema): { name: string; sql: string; unique: boolean; columns: string[]; where: string }[] {
  const soft = softDeleteColumn(e);
  const q = (s: string) => `"${s}"`;
  const out: { name: string; sql: string; unique: boolean; columns: string[]; where: string }[] = [];
  const add = (cols: string[], unique: boolean, live = false) => {
    const name = unique ? uniqueIndexName(e.name, cols) : `ix_${e.name}_${cols.join('_')}`;
    if (out.some((o) => o.name === name)) return;
    // soft-deleted rows must not keep a code from being reused; nor, for a `live` index, cancelled documents
    const parts = unique && soft ? [`${q(soft)} = 0`] : [];
    const final = e.workflow?.states.filter((st) => st.final).map((st) => `'${st.value.replace(/'/g, "''")}'`) ?? [];
    if (unique && live && e.workflow && final.length) parts.push(`${q(e.workflow.field)} not in (${final.join(', ')})`);
    const where = parts.length ? ` where ${parts.join(' and ')}` : '';
    out.push({ name, unique, columns: cols, where, sql: `create ${unique ? 'unique ' : ''}index if not exists ${q(name)} on ${q(e.name)} (${cols.map(q).join(', ')})${where}` });
  };
  if (e.parent) add([e.parent.field, 'line_no'], false);
  for (const [name, f] of Object.entries(e.fields)) {
    if (!hasColumn(f)) continue;
    if (f.unique) add([name], true);
    else if (f.indexed || f.type === 'link') add([name], false);
  }
  for (const ix of e.indexes ?? []) add(ix.fields, !!ix.unique, !!ix.live);
  // drawing a number asks whether any row, deleted or not, already has it (server/crud/numbering-series.ts);
  // a unique index that leaves deleted rows out cannot answer that, and without an index every creation reads the whole table
  const numbered = e.numbering?.field;
  if (numbered && e.fields[numbered] && hasColumn(e.fields[numbered]!) && (soft || !e.fields[numbered]!.unique)) add([numbered], false);
  return out;
}
