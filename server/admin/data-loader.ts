import type { Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import { replaceTables } from '../db/bulk-replace.ts';
import { AppError } from '../errors/app-error.ts';
import type { BackupSource } from './backup-source.ts';
import { countRows, describeTables, forTarget } from './table-data.ts';

export interface LoadReport {
  /** Rows written per table. */
  counts: Record<string, number>;
  /** Tables of the backup this database does not have (their rows were not loaded). */
  skippedTables: string[];
  /** Columns of the backup this database does not have, as table.column. */
  skippedColumns: string[];
}

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
        for (const [c, i] of keep) row[c] = forTarget(r[i], target.kinds[c] ?? 'other', db);
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

  await replaceTables(db, {
    tables: targets.map((t) => t.name),
    withIds: targets.filter((t) => t.hasId && t.kinds.id === 'number').map((t) => t.name),
    fill,
    refuse: (n, first) => new AppError('BACKUP_INVALID', `The backup's rows break ${n} foreign key(s), first in ${first}`),
  });
  return report;
}
