/**
 * `npm start` on a new embedded database (scripts/start.mjs): a child process
 * runs the server with BACKOFFICE_PREPARE_ONLY=1, which makes the tables, the
 * accounts and the demo data and exits without listening; the server then
 * starts in its own process as on any later day, without the loading's garbage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureWebBuilt } from '../../server/web/web-static.ts';
import { openSqlite } from '../../server/db/sqlite/sqlite-database.ts';
import { databaseUrlOf, sqlitePathOf } from '../../server/config/app-config.ts';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the database a start uses', () => {
  it('is DATABASE_URL, else backoffice.sqlite in DATA_DIR; a SQLite path is told from PostgreSQL', () => {
    expect(databaseUrlOf({ DATA_DIR: '/srv/bo' })).toBe('/srv/bo/backoffice.sqlite');
    expect(databaseUrlOf({ DATA_DIR: '/srv/bo', DATABASE_URL: 'postgres://db/bo' })).toBe('postgres://db/bo');
    expect(sqlitePathOf('/srv/bo/backoffice.sqlite')).toBe('/srv/bo/backoffice.sqlite');
    expect(sqlitePathOf('sqlite:///srv/x.sqlite')).toBe('/srv/x.sqlite');
    expect(sqlitePathOf(':memory:')).toBe(':memory:');
    expect(sqlitePathOf('postgresql://127.0.0.1/test')).toBeNull();
  });
});

describe('BACKOFFICE_PREPARE_ONLY=1', () => {
  let dir: string;
  beforeAll(async () => {
    await ensureWebBuilt(ROOT);
    dir = mkdtempSync(join(tmpdir(), 'bo-first-start-'));
  }, 180_000);
  afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  it('prepares the database with the demo data and exits 0 without listening, also when workers are asked for', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server/main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env, NODE_ENV: 'production', BACKOFFICE_PREPARE_ONLY: '1', SERVER_WORKERS: '2', DATA_DIR: dir, DATABASE_URL: join(dir, 'db.sqlite'),
        PORT: '0', SEED: 'demo', ADMIN_PASSWORD: 'First-start-Admin-1', DEMO_PASSWORD: 'First-start-Demo-1', LOG_LEVEL: 'info', REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_KEY: `first-start-${process.pid}`,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (d) => { out += d; });
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(code, out).toBe(0);
    expect(out).toMatch(/demo data loaded/);
    expect(out).not.toMatch(/serving on|listening/i);

    const db = openSqlite(join(dir, 'db.sqlite'));
    try {
      const seeded = await db.kysely.selectFrom('schema_state').select('value').where('key', '=', 'demo_seeded').executeTakeFirst();
      expect(seeded?.value).toBeTruthy();
      const users = (await db.kysely.selectFrom('user_account').select('username').execute()).map((u) => u.username);
      expect(users).toEqual(expect.arrayContaining(['admin', 'warehouse', 'sales']));
    } finally {
      await db.close();
    }
  }, 120_000);
});
