/**
 * Splits the rows of one multi-row statement so that no statement binds more
 * parameters than either dialect takes (SQLite 32,766, PostgreSQL 65,535): a
 * posting of a few thousand lines stays a handful of statements, never one
 * that the driver refuses.
 */
const MAX_PARAMETERS = 30_000;

export function inBatches<T>(rows: T[], parametersPerRow: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, parametersPerRow)));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
