/**
 * The demo business moved from an embedded SQLite file into PostgreSQL with
 * the migration command's code: every table's row count and checksum match,
 * and the copy serves the app (a sign-in works on it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoTestApp, createTestApp, TEST_HASH_LOG_N, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-databases.ts';
import { seedDemoAccounts } from '../../seed/demo-accounts.ts';
import { migrateSqliteToPostgres, verifyCopy } from '../../server/admin/migrate-to-postgres.ts';
import { prepareDatabase } from '../../server/bootstrap.ts';
import { openPostgres, withDefaultUser } from '../../server/db/postgres/postgres-database.ts';
import { START_LOCK } from '../../server/db/dialect-adapter.ts';
import pg from 'pg';

describe.skipIf(!process.env.TEST_DATABASE_URL)('SQLite to PostgreSQL migration', () => {
  let source: TestApp;
  let target: TestDatabase;

  beforeAll(async () => {
    source = await createDemoTestApp('sqlite');
    await seedDemoAccounts(source.db, source.service, 'Demo-password-1', TEST_HASH_LOG_N);
    // a custom field's column is in no schema file: the migration must still carry it and its data
    const cf = await source.app.inject({ method: 'POST', url: '/api/custom_field', headers: source.headers, payload: { entity: 'customer', name: 'line_id', type: 'string', label: { th: 'ไลน์', en: 'LINE' } } });
    expect(cf.statusCode, cf.body).toBe(201);
    const patched = await source.app.inject({ method: 'PATCH', url: '/api/customer/1', headers: source.headers, payload: { cf_line_id: '@somchai' } });
    expect(patched.statusCode, patched.body).toBe(200);
    target = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await source?.close();
    await target?.drop();
  });

  it('copies the demo business with matching row counts and checksums in every table', async () => {
    const report = await migrateSqliteToPostgres(source.testDb.url, target.url, source.registry, prepareDatabase);
    expect(report.skippedTables).toEqual([]);
    expect(report.skippedColumns).toEqual([]);
    expect(report.tables.filter((t) => !t.ok)).toEqual([]);
    expect(report.ok).toBe(true);
    const byName = Object.fromEntries(report.tables.map((t) => [t.table, t]));
    for (const table of ['customer', 'product', 'billing_note', 'user_account', 'user_credential', 'system_log', 'user_role']) {
      expect(byName[table]?.source_rows, table).toBeGreaterThan(0);
    }
    const pgCopy = openPostgres(target.url);
    try {
      expect(await pgCopy.kysely.selectFrom('customer').select('cf_line_id' as never).where('id', '=', 1).executeTakeFirst()).toEqual({ cf_line_id: '@somchai' });
    } finally {
      await pgCopy.close();
    }
    // a second run refuses to overwrite a database that already holds accounts
    await expect(migrateSqliteToPostgres(source.testDb.url, target.url, source.registry, prepareDatabase)).rejects.toThrow(/--force/);
  });

  it('waits while a server holds the start lock on the target, then copies', async () => {
    const fresh = await createTestDatabase('postgres');
    const holder = new pg.Client({ connectionString: withDefaultUser(fresh.url) });
    await holder.connect();
    try {
      // what a server does while it prepares the database (Database.alone)
      await holder.query('select pg_advisory_lock(hashtext($1))', [START_LOCK]);
      let waited = false;
      let done = false;
      const copying = migrateSqliteToPostgres(source.testDb.url, fresh.url, source.registry, prepareDatabase, { onWait: () => { waited = true; } }).finally(() => { done = true; });
      await new Promise((r) => setTimeout(r, 1000));
      expect([waited, done]).toEqual([true, false]);
      await holder.query('select pg_advisory_unlock(hashtext($1))', [START_LOCK]);
      expect((await copying).ok).toBe(true);
    } finally {
      await holder.end();
      await fresh.drop();
    }
  }, 60_000);

  it('the checksum notices a changed row', async () => {
    const pg = openPostgres(target.url);
    try {
      await pg.kysely.updateTable('customer').set({ name_th: 'แก้ไขหลังย้าย' }).where('id', '=', 1).execute();
      const checks = await verifyCopy(source.testDb.url, pg);
      const customer = checks.find((c) => c.table === 'customer')!;
      expect(customer.source_rows).toBe(customer.target_rows);
      expect(customer.ok).toBe(false);
      expect(checks.filter((c) => !c.ok).map((c) => c.table)).toEqual(['customer']);
    } finally {
      await pg.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('a SQLite backup restored into PostgreSQL', () => {
  let source: TestApp;
  let target: TestApp;

  beforeAll(async () => {
    source = await createDemoTestApp('sqlite');
    target = await createTestApp('postgres');
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it('loads every table with matching counts and checksums (the audit log and sync state stay the target\'s own)', async () => {
    const entry = await source.admin.store.create(source.db, { id: null, name: 'test' }, 'manual');
    const file = source.admin.store.pathOf(entry);
    const report = await target.admin.restore(file, { id: null, name: 'test', ip: null });
    expect(report.skippedTables).toEqual([]);
    const checks = (await verifyCopy(file, target.db)).filter((c) => c.table !== 'system_log' && c.table !== 'schema_state');
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.find((c) => c.table === 'customer')!.target_rows).toBeGreaterThan(0);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('loading as a PostgreSQL user who is not a superuser', () => {
  it('loads parents first instead of switching foreign keys off, with matching checksums', async () => {
    const source = await createDemoTestApp('sqlite');
    const base = withDefaultUser(process.env.TEST_DATABASE_URL!);
    const role = `bo_plain_${process.pid}`;
    const name = `${role}_db`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(`create role ${role} login nosuperuser`);
      await admin.query(`create database ${name} owner ${role}`);
      const url = new URL(base);
      url.username = role;
      url.pathname = `/${name}`;
      const report = await migrateSqliteToPostgres(source.testDb.url, url.toString(), source.registry, prepareDatabase);
      expect(report.tables.filter((t) => !t.ok)).toEqual([]);
      expect(report.ok).toBe(true);
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`drop role if exists ${role}`);
      await admin.end();
      await source.close();
    }
  });
});
