/**
 * Instances started together on one fresh PostgreSQL database (a deployment's first
 * start, or every instance restarted at once after an upgrade) prepare it one after
 * another: the first makes the tables, the admin and the demo data, the others find
 * them made. Without the start lock they raced: duplicate tables, two demo data sets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { bootstrap, type Started } from '../../server/bootstrap.ts';
import { seedDemo } from '../../seed/demo-seeder.ts';
import { readConfig } from '../../server/config/app-config.ts';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/test-databases.ts';
import { openPostgres } from '../../server/db/postgres/postgres-database.ts';
import { START_LOCK } from '../../server/db/dialect-adapter.ts';

const ROOT = join(import.meta.dirname, '../..');

describe.skipIf(!process.env.TEST_DATABASE_URL)('two instances starting together on a fresh PostgreSQL database', () => {
  let database: TestDatabase;
  const dirs: string[] = [];
  const started: Started[] = [];

  beforeAll(async () => { database = await createTestDatabase('postgres'); });
  afterAll(async () => {
    for (const s of started) { await s.app.close(); await s.db.close(); }
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await database?.drop();
  });

  it('both start; the tables, the admin and the demo data are made once', async () => {
    const logs: string[][] = [];
    const start = () => {
      const lines: string[] = [];
      logs.push(lines);
      const dir = mkdtempSync(join(tmpdir(), 'bo-boot-'));
      dirs.push(dir);
      const config = readConfig({
        DATA_DIR: dir, DATABASE_URL: database.url, PORT: '0', SEED: 'demo', LOG_LEVEL: 'silent', JWT_SECRET: 'j'.repeat(40),
        ADMIN_PASSWORD: 'Boot-admin-Pass-1', DEMO_PASSWORD: 'Boot-demo-Pass-1', SCHEMAS_DIR: join(ROOT, 'schemas'),
      });
      return bootstrap(config, { hashLogN: 10, log: (m) => lines.push(m), seeder: seedDemo });
    };
    const results = await Promise.allSettled([start(), start()]);
    for (const r of results) if (r.status === 'fulfilled') started.push(r.value);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'started'))).toEqual(['started', 'started']);
    // exactly one of them made the tables and loaded the demo data; the other found both done
    expect(started.map((s) => s.sync.skipped).sort()).toEqual([false, true]);
    expect(started.filter((s) => s.seeded !== null)).toHaveLength(1);
    // the one that waited said so in its log
    expect(logs.filter((lines) => lines.some((l) => /another instance is preparing the database/.test(l)))).toHaveLength(1);
    const k = started[0]!.db.kysely;
    const count = async (q: string) => Number((await sql.raw<{ n: number }>(q).execute(k)).rows[0]!.n);
    expect(await count(`select count(*) as n from user_account where username = 'admin'`)).toBe(1);
    expect(await count(`select count(*) as n from product`)).toBe(started.find((s) => s.seeded)!.seeded!.product);
  }, 120_000);

  it('with one connection in each pool, a start does not wait for itself', async () => {
    // the lock's session is its own connection: held from a pool, it would keep the only one from the start's own work
    const fresh = await createTestDatabase('postgres');
    const saved = { t: process.env.PG_POOL_SIZE, s: process.env.PG_READ_POOL_SIZE };
    process.env.PG_POOL_SIZE = '1';
    process.env.PG_READ_POOL_SIZE = '1';
    const dir = mkdtempSync(join(tmpdir(), 'bo-boot-'));
    dirs.push(dir);
    try {
      const config = readConfig({
        DATA_DIR: dir, DATABASE_URL: fresh.url, PORT: '0', SEED: 'none', LOG_LEVEL: 'silent', JWT_SECRET: 'j'.repeat(40),
        ADMIN_PASSWORD: 'Boot-admin-Pass-1', SCHEMAS_DIR: join(ROOT, 'schemas'),
      });
      const s = await Promise.race([
        bootstrap(config, { hashLogN: 10, seeder: seedDemo }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the start waited 30 s for a connection')), 30_000)),
      ]);
      expect(s.sync.skipped).toBe(false);
      await s.app.close();
      await s.db.close();
    } finally {
      process.env.PG_POOL_SIZE = saved.t;
      process.env.PG_READ_POOL_SIZE = saved.s;
      if (saved.t === undefined) delete process.env.PG_POOL_SIZE;
      if (saved.s === undefined) delete process.env.PG_READ_POOL_SIZE;
      await fresh.drop();
    }
  }, 60_000);

  it("the start lock outlasts the database's own statement and idle timeouts, and holds back no vacuum", async () => {
    // an operator may set timeouts for the application's statements on the database or its role; the lock's
    // session must neither give up waiting for another start nor be closed while idle during its own
    const fresh = await createTestDatabase('postgres');
    const admin = new pg.Client({ connectionString: fresh.url });
    await admin.connect();
    const holder = new pg.Client({ connectionString: fresh.url });
    const db = openPostgres(fresh.url, { transactions: 1, statements: 1 });
    try {
      const name = fresh.url.split('/').pop()!;
      await admin.query(`alter database ${name} set statement_timeout = '300ms'`);
      await admin.query(`alter database ${name} set idle_session_timeout = '300ms'`);
      await admin.query(`alter database ${name} set idle_in_transaction_session_timeout = '300ms'`);
      await holder.connect();
      // the other start, holding the lock: its own session is spared the timeouts
      await holder.query(`set statement_timeout = 0; set idle_session_timeout = 0; set idle_in_transaction_session_timeout = 0`);
      await holder.query('select pg_advisory_lock(hashtext($1))', [START_LOCK]);
      const released = new Promise((r) => setTimeout(r, 1000)).then(() => holder.query('select pg_advisory_unlock_all()'));
      let waited = false;
      const during = await db.alone(START_LOCK, async () => {
        await new Promise((r) => setTimeout(r, 1000));
        // this database's locks only: other test files running beside this one take advisory locks of their own
        const locks = await admin.query(`select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database where l.locktype = 'advisory' and l.granted and d.datname = $1`, [name]);
        // the idle lock transaction holds no snapshot, so vacuum is not held back while a start (or a long seed) runs
        const idle = await admin.query(`select backend_xmin::text as xmin from pg_stat_activity where datname = $1 and state = 'idle in transaction'`, [name]);
        return { locks: locks.rows[0].n as number, idle: idle.rows as { xmin: string | null }[] };
      }, () => { waited = true; });
      await released;
      expect(waited).toBe(true);
      // still held after a second of idling, three times the idle timeouts
      expect(during.locks).toBe(1);
      expect(during.idle).toEqual([{ xmin: null }]);
    } finally {
      await db.close();
      await holder.end().catch(() => undefined);
      await admin.end();
      await fresh.drop();
    }
  }, 30_000);
});
