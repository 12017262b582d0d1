// npm start's first start on an embedded SQLite database; plain JavaScript, like the rest of scripts/.
import { existsSync, linkSync, renameSync, rmSync, statSync } from 'node:fs';

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
    log(`the new database ${temp} was not closed cleanly (its write-ahead log is still there), so it was not put in place; `
      + 'it is left for inspection, and the next npm start removes it and prepares the database afresh');
    return 1;
  }
  for (const f of sidecars(temp)) rmSync(f, { force: true });
  // a link, not a rename: a database that appeared at the path meanwhile (a server started on it directly) is
  // kept, and this start stops, instead of that file being replaced under the server using it
  try {
    linkSync(temp, sqlitePath);
  } catch (err) {
    if (err.code !== 'EEXIST') {
      // a file system without hard links: a rename, which only a path that appeared this very moment could race
      if (existsSync(sqlitePath)) throw err;
      renameSync(temp, sqlitePath);
      return 0;
    }
    log(`${sqlitePath} appeared while the database was being prepared (was a server started on it?); it was left as it is. Run npm start again to use it`);
    rmSync(temp, { force: true });
    return 1;
  }
  rmSync(temp, { force: true });
  return 0;
}
