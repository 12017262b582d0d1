import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { readSchemaDir } from '../../server/schema-files.ts';
import { openDatabase } from '../../server/db/database-factory.ts';
import { prepareDatabase } from '../../server/bootstrap.ts';
import { withDefaultUser } from '../../server/db/postgres/postgres-database.ts';
import type { DialectName } from './test-databases.ts';
import { oncePerRun, runId } from './test-run.ts';

const SCHEMAS_DIR = resolve(import.meta.dirname, '../../schemas');

/**
 * The run's database prepared for the project's schemas (every table synced, the built-in roles, the
 * system tables), made once per run and dialect: a SQLite file to copy, or the name of a PostgreSQL
 * database to use as CREATE DATABASE's template. Some 250 test apps start per run; each spent 1 s
 * (SQLite) to 3-7 s (PostgreSQL) making these same tables. Undefined outside a run.
 */
export async function preparedTemplate(dialect: DialectName): Promise<string | undefined> {
  return templateOf(dialect, 'prepared', (url) => prepareAt(url));
}

/**
 * A template made from the prepared one by `fill` (given the new database's URL; it closes what it opens), once per
 * run, dialect and `key` (lower-case letters, digits and `_`): for a starting point some files share, such as the
 * demo data loaded through the service (test-app.ts). Undefined outside a run.
 */
export async function derivedTemplate(dialect: DialectName, key: string, fill: (url: string) => Promise<void>): Promise<string | undefined> {
  const prepared = await preparedTemplate(dialect);
  if (!prepared) return undefined;
  return templateOf(dialect, key, async (url) => {
    if (dialect === 'sqlite') copyFileSync(prepared, url);
    await fill(url);
  }, prepared);
}

async function templateOf(dialect: DialectName, key: string, make: (url: string) => Promise<void>, from?: string): Promise<string | undefined> {
  const dir = await oncePerRun(`${key}-${dialect}`, async (into) => {
    if (dialect === 'sqlite') {
      await make(join(into, 'template.sqlite'));
      // a clean close folds the WAL back into the file: the file alone is the database
      if (existsSync(join(into, 'template.sqlite-wal'))) throw new Error(`the SQLite template ${key} kept a WAL file after closing`);
      return;
    }
    const base = withDefaultUser(process.env.TEST_DATABASE_URL!);
    const name = `bo_tmpl_${runId()}_${key}`;
    await onBase(base, (c) => c.query(`drop database if exists ${name} with (force)`).then(() => c.query(`create database ${name}${from ? ` template ${from}` : ''}`)));
    const url = new URL(base);
    url.pathname = `/${name}`;
    await make(url.toString());
    // CREATE DATABASE … TEMPLATE refuses a template with sessions: wait for the closed pool's to end
    await onBase(base, async (c) => {
      for (let i = 0; i < 100; i++) {
        const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`the template database ${name} still has sessions`);
    });
    writeFileSync(join(into, 'name'), name);
  });
  if (!dir) return undefined;
  return dialect === 'sqlite' ? join(dir, 'template.sqlite') : readFileSync(join(dir, 'name'), 'utf8');
}

async function prepareAt(url: string): Promise<void> {
  const db = openDatabase(url);
  try {
    await prepareDatabase(db, new SchemaRegistry(readSchemaDir(SCHEMAS_DIR)));
  } finally {
    await db.close();
  }
}

async function onBase<T>(base: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}
