import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import { AppError } from '../errors/app-error.ts';
import type { BackupSource } from './backup-source.ts';
import { countRows, describeTables, forTarget, type TableInfo } from './table-data.ts';

export interface LoadReport {
  /** Rows written per table. */
  counts: Record<string, number>;
  /** Tables of the backup this database does not have (their rows were not loaded). */
  skippedTables: string[];
  /** Columns of the backup this database does not have, as table.column. */
  skippedColumns: string[];
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Replaces the contents of every table of `db` (except `skip`) with the rows
 * of `source`, in one transaction: all or nothing. Tables the backup lacks
 * end up empty, columns it lacks take their defaults.
 */
export async function loadInto(db: Database, source: BackupSource, skip: Set<string>): Promise<LoadReport> {
  const targets = (await describeTables(db)).filter((t) => !skip.has(t.name));
  const byName = new Map(targets.map((t) => [t.name, t]));
  const report: LoadReport = { counts: {}, skippedTables: [], skippedColumns: [] };

  const fill = async (k: Kysely<any>) => {
    for await (const st of source.tables()) {
      const target = byName.get(st.name);
      if (!target) {
        if (!skip.has(st.name)) report.skippedTables.push(st.name);
        for await (const _ of st.rows()) { /* read through: the file's checks still run */ }
        continue;
      }
      const keep = st.columns.map((c, i) => [c, i] as const).filter(([c]) => target.columns.includes(c));
      for (const c of st.columns) if (!target.columns.includes(c)) report.skippedColumns.push(`${st.name}.${c}`);
      const batchSize = Math.max(1, Math.floor(8000 / Math.max(1, keep.length)));
      let batch: Record<string, unknown>[] = [];
      let n = 0;
      const flush = async () => {
        if (batch.length) await k.insertInto(st.name).values(batch).execute();
        n += batch.length;
        batch = [];
      };
      for await (const r of st.rows()) {
        const row: Record<string, unknown> = {};
        for (const [c, i] of keep) row[c] = forTarget(r[i], target.kinds[c] ?? 'other', db.adapter.name);
        batch.push(row);
        if (batch.length >= batchSize) await flush();
      }
      await flush();
      report.counts[st.name] = n;
    }
    for (const t of targets) {
      const expected = report.counts[t.name] ?? 0;
      const actual = await countRows(k, t.name);
      if (actual !== expected) throw new AppError('BACKUP_INVALID', `After loading, ${t.name} holds ${actual} rows instead of ${expected}`);
    }
  };

  if (db.adapter.name === 'sqlite') {
    // foreign keys are off while tables are emptied and refilled (a RESTRICT key would refuse even a deferred delete),
    // and checked as a whole before commit; one connection, so nothing else runs in between
    await db.kysely.connection().execute(async (k) => {
      await sql`pragma foreign_keys = off`.execute(k);
      try {
        await sql`begin immediate`.execute(k);
        try {
          for (const t of [...targets].reverse()) await sql.raw(`delete from ${q(t.name)}`).execute(k);
          await fill(k);
          const broken = await sql<{ table: string }>`pragma foreign_key_check`.execute(k);
          if (broken.rows.length) throw new AppError('BACKUP_INVALID', `The backup's rows break ${broken.rows.length} foreign key(s), first in ${broken.rows[0]!.table}`);
          await sql`commit`.execute(k);
        } catch (err) {
          await sql`rollback`.execute(k).catch(() => undefined);
          throw err;
        }
      } finally {
        await sql`pragma foreign_keys = on`.execute(k);
      }
    });
  } else {
    await db.kysely.transaction().execute(async (trx) => {
      const su = await sql<{ s: boolean }>`select rolsuper as s from pg_roles where rolname = current_user`.execute(trx);
      // a superuser loads without firing foreign key triggers; otherwise rows go in parents first
      if (su.rows[0]?.s) await sql`set local session_replication_role = replica`.execute(trx);
      if (targets.length) await sql.raw(`truncate table ${targets.map((t) => q(t.name)).join(', ')}`).execute(trx);
      await fill(trx);
      await resetSequences(trx, targets);
    });
  }
  return report;
}

/** Identity columns continue after the highest id loaded. */
async function resetSequences(k: Kysely<any>, tables: TableInfo[]): Promise<void> {
  for (const t of tables) {
    if (!t.hasId || t.kinds.id !== 'number') continue;
    await sql.raw(`select setval(s, greatest(coalesce((select max(id) from ${q(t.name)}), 0), 1), (select max(id) from ${q(t.name)}) is not null)
      from pg_get_serial_sequence('${t.name.replace(/'/g, "''")}', 'id') as s where s is not null`).execute(k);
  }
}
