import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { withDefaultUser } from '../../server/db/postgres/postgres-database.ts';
import { runId } from './test-run.ts';

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

/** Where a new database starts: empty, or a copy of a template (a SQLite file, or a PostgreSQL database nobody is connected to). */
export interface NewDatabaseOptions { template?: string }

/** Creates an empty database (or a copy of `template`): a temp SQLite file, or a new PostgreSQL database next to TEST_DATABASE_URL's. */
export async function createTestDatabase(dialect: DialectName, opts: NewDatabaseOptions = {}): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'bo-test-'));
    if (opts.template) copyFileSync(opts.template, join(dir, 'test.sqlite'));
    return { dialect, url: join(dir, 'test.sqlite'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const base = withDefaultUser(process.env.TEST_DATABASE_URL);
  const run = runId();
  const name = `bo_test_${run ? `${run}_` : ''}${process.pid}_${Date.now().toString(36)}_${++counter}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}${opts.template ? ` template ${opts.template}` : ''}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    dialect,
    url: url.toString(),
    // PostgreSQL 15 checkpoints on every DROP DATABASE (2-3 s each on this machine, some 250 a run):
    // within a run they wait for the run's end, where global-setup.ts drops them together (dropRunDatabases)
    drop: run ? async () => undefined : () => dropDatabase(base, name),
  };
}

async function dropDatabase(base: string, name: string): Promise<void> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    // let connections that are closing (a pool ending, a late audit write) finish before forcing the rest
    for (let i = 0; i < 40; i++) {
      const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
      if (rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await c.query(`drop database if exists ${name} with (force)`);
  } finally {
    await c.end();
  }
}

/** Drops the PostgreSQL databases the run `run` made (its test databases and templates), a few at a time; answers how many. */
export async function dropRunDatabases(run: string): Promise<number> {
  if (!process.env.TEST_DATABASE_URL) return 0;
  const base = withDefaultUser(process.env.TEST_DATABASE_URL);
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  let names: string[];
  try {
    const { rows } = await c.query(String.raw`select datname from pg_database where datname like 'bo\_test\_' || $1 || '\_%' or datname like 'bo\_tmpl\_' || $1 || '\_%'`, [run]);
    names = rows.map((r) => r.datname as string);
  } finally {
    await c.end();
  }
  // drops that run together share their checkpoints: 20 empty databases dropped at once took 8 s here, one by one 1.7 s each
  const queue = [...names];
  await Promise.all(Array.from({ length: 16 }, async () => {
    for (let name = queue.shift(); name; name = queue.shift()) await dropDatabase(base, name);
  }));
  return names.length;
}
