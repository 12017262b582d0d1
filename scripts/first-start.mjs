// npm start's first start on an embedded SQLite database; plain JavaScript, like the rest of scripts/.
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';

/**
 * Prepares a new SQLite database (tables, accounts, demo data) under a temporary name, in a
 * child process `prepare(env)` runs with those variables added, and moves it to `sqlitePath`
 * only once that child has finished and closed it. An interrupted first start (Ctrl+C, a killed
 * process, a power cut) so leaves no half-loaded database, on which every later start would
 * fail; the next start prepares afresh. Returns the child's exit status (0: in place).
 */
export function prepareFirstStart(sqlitePath, prepare, log = (m) => console.error(`[backoffice] ${m}`)) {
  const temp = `${sqlitePath}.preparing`;
  const sidecars = (p) => [`${p}-wal`, `${p}-shm`, `${p}-journal`];
  // what an interrupted earlier attempt left; and a write-ahead log beside a database file that does not
  // exist belongs to no database, so it must not be replayed into the new one
  for (const f of [temp, ...sidecars(temp), ...sidecars(sqlitePath)]) rmSync(f, { force: true });
  const status = prepare({ DATABASE_URL: temp, BACKOFFICE_PREPARE_ONLY: '1' });
  if (status !== 0) {
    for (const f of [temp, ...sidecars(temp)]) rmSync(f, { force: true });
    return status ?? 1;
  }
  // closing the last connection checkpoints the write-ahead log into the file and deletes it
  const wal = `${temp}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    log(`the new database ${temp} was not closed cleanly (its write-ahead log is still there); it was left for inspection`);
    return 1;
  }
  for (const f of sidecars(temp)) rmSync(f, { force: true });
  renameSync(temp, sqlitePath);
  return 0;
}
