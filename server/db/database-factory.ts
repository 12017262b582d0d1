import type { Database } from './dialect-adapter.ts';
import { openSqlite } from './sqlite/sqlite-database.ts';
import { openPostgres } from './postgres/postgres-database.ts';
import { sqlitePathOf } from '../config/app-config.ts';

/** DATABASE_URL is a file path (SQLite) or postgres://… (PostgreSQL). */
export function openDatabase(url: string): Database {
  const sqlite = sqlitePathOf(url);
  return sqlite === null ? openPostgres(url) : openSqlite(sqlite);
}
