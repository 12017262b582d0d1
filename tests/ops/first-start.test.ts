/**
 * `npm start` on a new embedded database (scripts/start.mjs): a child process
 * runs the server with BACKOFFICE_PREPARE_ONLY=1, which makes the tables, the
 * accounts and the demo data and exits without listening; the server then
 * starts in its own process as on any later day, without the loading's garbage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import Sqlite from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureWebBuilt } from '../../scripts/web-build.mjs';
import { openSqlite } from '../../server/db/sqlite/sqlite-database.ts';
import { databaseUrlOf, describeDatabase, sqlitePathOf } from '../../server/config/app-config.ts';
// @ts-expect-error a plain JavaScript script of npm start's, without types
import { prepareFirstStart } from '../../scripts/first-start.mjs';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * A fresh folder for the describe block, removed after it; the web app is built first, as the
 * server run from source would otherwise build it inside the test's time.
 */
function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-first-start-'));
  beforeAll(async () => { await ensureWebBuilt(ROOT); }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('the database a start uses', () => {
  it('is DATABASE_URL, else backoffice.sqlite in DATA_DIR; a SQLite path is told from PostgreSQL', () => {
    expect(databaseUrlOf({ DATA_DIR: '/srv/bo' })).toBe('/srv/bo/backoffice.sqlite');
    expect(databaseUrlOf({ DATA_DIR: '/srv/bo', DATABASE_URL: 'postgres://db/bo' })).toBe('postgres://db/bo');
    expect(sqlitePathOf('/srv/bo/backoffice.sqlite')).toBe('/srv/bo/backoffice.sqlite');
    expect(sqlitePathOf('sqlite:///srv/x.sqlite')).toBe('/srv/x.sqlite');
    expect(sqlitePathOf(':memory:')).toBe(':memory:');
    expect(sqlitePathOf('postgresql://127.0.0.1/test')).toBeNull();
  });

  it('is named in operators\' messages without its password', () => {
    expect(describeDatabase('sqlite:///srv/x.sqlite')).toBe('/srv/x.sqlite');
    expect(describeDatabase('postgres://bo:s3cret@db.example:5432/backoffice')).toBe('postgres://bo@db.example:5432/backoffice');
    expect(describeDatabase('postgres://db.example/backoffice')).toBe('postgres://db.example/backoffice');
  });
});

describe("npm start's first start moves the database into place only once it is complete", () => {
  const dir = scratchDir();
  const quiet = () => undefined;

  it('an interrupted preparation leaves no database behind, and the next start prepares it whole', async () => {
    const target = join(dir, 'backoffice.sqlite');
    // the first attempt is killed halfway: it made some tables and rows, and never closed the file
    const interrupted = prepareFirstStart(target, (env: Record<string, string>) => {
      const half = new Sqlite(env.DATABASE_URL!);
      half.pragma('journal_mode = WAL');
      half.exec("create table your_company_type (code text); insert into your_company_type values ('TRD')");
      return null; // spawnSync's status for a child killed by a signal
    }, quiet);
    expect(interrupted).toBe(1);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);

    // the real preparation: BACKOFFICE_PREPARE_ONLY=1 (prepareFirstStart's variable) loads the demo data and exits 0
    // without listening, also when workers are asked for (one load of the demo data serves both checks: 15-30 s each)
    let out = '';
    const status = prepareFirstStart(target, (env: Record<string, string>) => {
      expect(env.BACKOFFICE_PREPARE_ONLY).toBe('1');
      const child = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/server-main.ts')], {
        cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8',
        env: {
          ...process.env, ...env, NODE_ENV: 'production', SERVER_WORKERS: '2', DATA_DIR: dir, PORT: '0', SEED: 'demo', ADMIN_PASSWORD: 'First-start-Admin-1', DEMO_PASSWORD: 'First-start-Demo-1',
          LOG_LEVEL: 'info', REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_KEY: `first-start-${process.pid}`,
        },
      });
      out = child.stdout ?? '';
      return child.status;
    }, quiet);
    expect(status, out).toBe(0);
    expect(out).toMatch(/demo data loaded/);
    expect(out).not.toMatch(/serving on|listening/i);
    expect(readdirSync(dir).filter((f) => f.includes('sqlite')).sort()).toEqual(['backoffice.sqlite']);
    const db = openSqlite(target);
    try {
      expect((await db.kysely.selectFrom('schema_state').select('value').where('key', '=', 'demo_seeded').executeTakeFirst())?.value).toBeTruthy();
      expect((await db.kysely.selectFrom('your_company_type').select('code').execute()).map((r) => r.code).sort()).toEqual(['MFG', 'SVC', 'TRD']);
      const users = (await db.kysely.selectFrom('user_account').select('username').execute()).map((u) => u.username);
      expect(users).toEqual(expect.arrayContaining(['admin', 'warehouse', 'sales']));
    } finally {
      await db.close();
    }
  }, 120_000);

  it('a write-ahead log beside no database is not replayed into the new one, and one left by the preparation stops the start', () => {
    const target = join(dir, 'other.sqlite');
    writeFileSync(`${target}-wal`, 'left by a database removed without its log');
    const status = prepareFirstStart(target, (env: Record<string, string>) => {
      expect(existsSync(`${target}-wal`)).toBe(false);
      const db = new Sqlite(env.DATABASE_URL!);
      db.pragma('journal_mode = WAL');
      db.exec('create table t (x); insert into t values (1)');
      // exits 0 without closing the file: its log is still there
      return 0;
    }, quiet);
    expect(status).toBe(1);
    expect(existsSync(target)).toBe(false);
  });

  it('a database that appeared at the path while preparing is kept, and the prepared one is not put over it', () => {
    const target = join(dir, 'raced.sqlite');
    const status = prepareFirstStart(target, (env: Record<string, string>) => {
      const prepared = new Sqlite(env.DATABASE_URL!);
      prepared.exec('create table t (x)');
      prepared.close();
      // meanwhile a server was started on the path itself
      const other = new Sqlite(target);
      other.exec("create table mine (x); insert into mine values ('kept')");
      other.close();
      return 0;
    }, quiet);
    expect(status).toBe(1);
    const kept = new Sqlite(target, { readonly: true });
    try {
      expect(kept.prepare('select x from mine').pluck().get()).toBe('kept');
    } finally {
      kept.close();
    }
    expect(existsSync(`${target}.preparing`)).toBe(false);
  });
});

