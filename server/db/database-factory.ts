import type { Database } from './dialect-adapter.ts';
import { openSqlite } from './sqlite/sqlite-database.ts';
import { openPostgres } from './postgres/postgres-database.ts';

/** DATABASE_URL is a file path (SQLite) or postgres://… (PostgreSQL). */
export function openDatabase(url: string): Database {
  return /^postgres(ql)?:\/\//.test(url) ? openPostgres(url) : openSqlite(url.replace(/^sqlite:(\/\/)?/, ''));
}
