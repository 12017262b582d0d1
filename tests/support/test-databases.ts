import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { withDefaultUser } from '../../server/db/postgres/postgres-database.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface TestDatabase {
  dialect: DialectName;
  /** A DATABASE_URL for a fresh, empty database of this dialect. */
  url: string;
  drop(): Promise<void>;
}

let counter = 0;

/** The dialects every database-touching test runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testDialects(): DialectName[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** Creates an empty database: a temp SQLite file, or a new PostgreSQL database next to TEST_DATABASE_URL's. */
export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'bo-test-'));
    return { dialect, url: join(dir, 'test.sqlite'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const base = withDefaultUser(process.env.TEST_DATABASE_URL);
  const name = `bo_test_${process.pid}_${Date.now().toString(36)}_${++counter}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    dialect,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      // let connections that are closing (a pool ending, a late audit write) finish before forcing the rest
      for (let i = 0; i < 40; i++) {
        const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
