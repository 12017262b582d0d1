import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database } from '../db/dialect-adapter.ts';
import { bindable } from '../db/bulk-replace.ts';
import { catalogTables } from '../db/table-catalog.ts';

/**
 * Reading and writing whole tables, the same way on both dialects: what
 * backups, restores and the SQLite → PostgreSQL migration share.
 */

/** The product's own data schema version. Raise it when a release changes tables so that older code could not read them. */
export const DATA_SCHEMA_VERSION = 1;
export const BACKUP_FORMAT = 'thai-backoffice-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** Column kinds that need care between dialects. */
export type ColumnKind = 'json' | 'timestamp' | 'number' | 'text' | 'other';

export interface TableInfo {
  name: string;
  columns: string[];
  kinds: Record<string, ColumnKind>;
  /** Tables this one points at with foreign keys (itself excluded). */
  parents: string[];
  hasId: boolean;
}

function kindOf(type: string): ColumnKind {
  const t = type.toLowerCase();
  if (t === 'jsonb' || t === 'json') return 'json';
  if (t.startsWith('timestamp')) return 'timestamp';
  if (/int|numeric|real|double/.test(t)) return 'number';
  if (t === 'text' || t.startsWith('character')) return 'text';
  return 'other';
}

/** Every table of a live database, parents before children. */
export async function describeTables(db: Database): Promise<TableInfo[]> {
  return parentsFirst((await catalogTables(db.kysely)).map((t) => info(t.name, t.columns, t.parents)));
}

/** The same description for a SQLite file opened directly (a backup or a file to migrate). */
export function describeSqliteFile(raw: BetterSqlite3.Database): TableInfo[] {
  const names = raw.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`).all() as { name: string }[];
  return parentsFirst(names.map(({ name }) => {
    const cols = raw.prepare('select name, type from pragma_table_info(?)').all(name) as { name: string; type: string }[];
    const fks = raw.prepare('select "table" from pragma_foreign_key_list(?)').all(name) as { table: string }[];
    return info(name, cols.map((c) => [c.name, c.type]), fks.map((f) => f.table));
  }));
}

function info(name: string, cols: [string, string][], parents: string[]): TableInfo {
  return {
    name,
    columns: cols.map((c) => c[0]),
    kinds: Object.fromEntries(cols.map(([n, t]) => [n, kindOf(t)])),
    parents: [...new Set(parents)].filter((p) => p !== name),
    hasId: cols.some((c) => c[0] === 'id'),
  };
}

export function parentsFirst(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const out: TableInfo[] = [];
  const visit = (t: TableInfo, stack: Set<string>) => {
    if (done.has(t.name) || stack.has(t.name)) return;
    stack.add(t.name);
    for (const p of t.parents) { const pt = byName.get(p); if (pt) visit(pt, stack); }
    stack.delete(t.name);
    done.add(t.name);
    out.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return out;
}

/** A value as it is written into a backup line: JSON-safe, dialect-neutral (JSON columns stay JSON text). */
export function portable(v: unknown, kind: ColumnKind): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return { $base64: v.toString('base64') };
  if (typeof v === 'bigint') return Number(v);
  if (kind === 'json' && typeof v !== 'string') return JSON.stringify(v);
  return v;
}

/** A value ready to be inserted into a column of the target dialect. */
export function forTarget(v: unknown, kind: ColumnKind, target: Database): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'object' && v !== null && '$base64' in v) return Buffer.from(String((v as { $base64: string }).$base64), 'base64');
  if (v instanceof Date) return bindable(target, v, false);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'object' && !Buffer.isBuffer(v)) return JSON.stringify(v);
  if (kind === 'json' && typeof v !== 'string') return bindable(target, v, true);
  return v;
}

function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, stable((v as Record<string, unknown>)[k])]));
  return v;
}

/**
 * The canonical form of a value for comparing dialects: JSON parsed and
 * re-encoded with sorted keys, date-times as ISO UTC, numbers as numbers.
 */
export function canonical(v: unknown, kind: ColumnKind): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return v.toString('base64');
  if (kind === 'json') {
    let parsed = v;
    if (typeof v === 'string') { try { parsed = JSON.parse(v); } catch { return v; } }
    return JSON.stringify(stable(parsed));
  }
  if (kind === 'timestamp' && typeof v === 'string') {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? v : d.toISOString();
  }
  if (typeof v === 'bigint') return Number(v);
  if (kind === 'number' && typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  return v;
}

/**
 * An order-independent checksum of a table's rows: the sum (mod 2^128) of
 * each canonical row's SHA-256 prefix, so the same rows read in any order,
 * from either dialect, give the same value.
 */
export class TableChecksum {
  private sum = 0n;
  count = 0;
  constructor(private readonly columns: string[], private readonly kinds: Record<string, ColumnKind>) {}
  add(row: Record<string, unknown>): void {
    const canon = this.columns.map((c) => canonical(row[c], this.kinds[c] ?? 'other'));
    const h = createHash('sha256').update(JSON.stringify(canon)).digest();
    this.sum = (this.sum + BigInt(`0x${h.subarray(0, 16).toString('hex')}`)) % (1n << 128n);
    this.count++;
  }
  get hex(): string {
    return this.sum.toString(16).padStart(32, '0');
  }
}

/**
 * Reads a whole table of a live database in pages (within the caller's
 * transaction when `k` is one): by id ranges when the table has an integer
 * id, so a large table costs one index range per page, else by offset.
 */
export async function* readRows(k: Kysely<any>, t: TableInfo, pageSize = 2000): AsyncGenerator<Record<string, unknown>> {
  if (t.hasId && t.kinds.id === 'number') {
    let after: number | null = null;
    for (;;) {
      let q = k.selectFrom(t.name).selectAll().orderBy('id').limit(pageSize);
      if (after !== null) q = q.where('id', '>', after);
      const rows = await q.execute();
      for (const r of rows) yield r as Record<string, unknown>;
      if (rows.length < pageSize) return;
      after = Number((rows[rows.length - 1] as { id: unknown }).id);
    }
  }
  for (let offset = 0; ; offset += pageSize) {
    let q = k.selectFrom(t.name).selectAll();
    q = t.hasId ? q.orderBy('id') : q.orderBy(sql.raw('1') as never);
    const rows = await q.limit(pageSize).offset(offset).execute();
    for (const r of rows) yield r as Record<string, unknown>;
    if (rows.length < pageSize) return;
  }
}

export async function countRows(k: Kysely<any>, table: string): Promise<number> {
  const r = await k.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  return Number(r?.n ?? 0);
}
