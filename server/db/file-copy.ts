import type { Database } from './dialect-adapter.ts';
import { sqliteHandle } from './sqlite/sqlite-database.ts';

/**
 * Copies the whole database into the file `path` while users keep working, when the database is
 * one file (SQLite: the backup API of better-sqlite3, pages copied in steps; a write in between
 * restarts or updates the copy, so the file is one consistent state); answers false for a
 * database that is not a file (PostgreSQL), whose backup is read table by table instead.
 */
export async function copyToFile(db: Database, path: string): Promise<boolean> {
  const raw = sqliteHandle(db);
  if (!raw) return false;
  await raw.backup(path);
  return true;
}
