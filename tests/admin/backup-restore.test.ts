/**
 * Backup and restore through the API on every dialect: a backup, then
 * changes, then a restore gives back exactly the backed-up rows (compared row
 * by row, table by table); writes made during a backup do not corrupt it;
 * damaged, foreign and newer files are refused before anything changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { multipart } from '../support/multipart.ts';
import { createDemoTestApp, TEST_HASH_LOG_N, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { seedDemoAccounts } from '../../seed/demo-accounts.ts';
import { describeTables, readRows, DATA_SCHEMA_VERSION } from '../../server/admin/table-data.ts';
import { RESTORE_SKIPS } from '../../server/admin/admin-routes.ts';
import { verifyBackupFile } from '../../server/admin/backup-source.ts';
import type { Database } from '../../server/db/dialect-adapter.ts';

async function snapshot(db: Database): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of await describeTables(db)) {
    if (RESTORE_SKIPS.has(t.name)) continue;
    const rows: unknown[] = [];
    for await (const r of readRows(db.kysely, t)) rows.push(r);
    out[t.name] = rows;
  }
  return out;
}

describe.each(testDialects())('backup and restore on %s', (dialect) => {
  let t: TestApp;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { ...t.headers, ...headers }, ...(payload === undefined ? {} : { payload: payload as string }) });

  beforeAll(async () => {
    t = await createDemoTestApp(dialect);
    await seedDemoAccounts(t.db, t.service, 'Demo-password-1', TEST_HASH_LOG_N);
  });
  afterAll(async () => { await t?.close(); });

  it('restores exactly the rows of the backup, table by table', async () => {
    const before = await snapshot(t.db);
    expect(Object.values(before).reduce((a, r) => a + r.length, 0)).toBeGreaterThan(100);
    const made = await call('POST', '/api/db_manage/backup');
    expect(made.statusCode, made.body).toBe(201);
    const { id, size, created_at } = made.json().data;
    expect(typeof id).toBe('string');
    expect(size).toBeGreaterThan(0);
    expect(Date.parse(created_at)).not.toBeNaN();

    const list = await call('GET', '/api/db_manage/backup');
    expect(list.json().data.map((b: { id: string }) => b.id)).toContain(id);
    expect(list.json().data[0]).toMatchObject({ id, created_by_name: 'admin', origin: 'manual', size });

    const download = await call('GET', `/api/db_manage/backup/${id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(size);
    expect(download.headers['content-disposition']).toContain('attachment');

    // change data: create, update, delete
    const customers = (await call('GET', '/api/customer?limit=3')).json().data as { id: number; code: string }[];
    expect((await call('PATCH', `/api/customer/${customers[0]!.id}`, { name_th: 'เปลี่ยนแล้ว' })).statusCode).toBe(200);
    const created = await call('POST', '/api/customer', { code: 'NEW-AFTER-BACKUP', name_th: 'ลูกค้าใหม่', customer_type: 'individual' });
    expect(created.statusCode, created.body).toBe(201);
    const role = await call('POST', '/api/user_role', { name: 'Made after backup', role_detail: { customer: { view: true } } });
    expect(role.statusCode).toBe(201);
    // a page setting saved after the backup: the restore takes it away on every instance (the version moves)
    const setting = await call('PUT', '/api/page_setting/customer', { page: { label: { th: 'คู่ค้าหลังสำรอง', en: 'After backup' } } });
    expect(setting.statusCode, setting.body).toBe(200);
    expect((await call('GET', '/api/meta/entities/customer')).json().data.entity.label.en).toBe('After backup');
    expect(await snapshot(t.db)).not.toEqual(before);
    const logBefore = Number((await t.db.kysely.selectFrom('system_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n);

    const restored = await call('POST', '/api/db_manage/restore', { id });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().data.skipped_tables).toEqual([]);
    const after = await snapshot(t.db);
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect((await call('GET', '/api/meta/entities/customer')).json().data.entity.label.en).toBe(t.registry.fileSchema('customer')!.label.en);

    // the audit log was kept and grew by the restore itself
    const log = await t.db.kysely.selectFrom('system_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(log.action).toBe('restore');
    const logAfter = Number((await t.db.kysely.selectFrom('system_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n);
    expect(logAfter).toBeGreaterThan(logBefore);

    // ids continue after the restored rows; the app keeps working
    const again = await call('POST', '/api/customer', { code: 'NEW-AFTER-RESTORE', name_th: 'ลูกค้าใหม่', customer_type: 'individual' });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().data.id).toBeGreaterThan(Math.max(...(before.customer as { id: number }[]).map((c) => c.id)));
  });

  it('reads a table page by page, by id ranges or by offset, without missing or repeating a row', async () => {
    const tables = await describeTables(t.db);
    for (const name of ['customer', 'file_upload', 'user_credential']) {
      const info = tables.find((x) => x.name === name)!;
      const all: unknown[] = [];
      for await (const r of readRows(t.db.kysely, info, 1_000_000)) all.push(r);
      const paged: unknown[] = [];
      for await (const r of readRows(t.db.kysely, info, 3)) paged.push(r);
      expect(paged, name).toEqual(all);
    }
  });

  it('a backup taken while users write is consistent and restorable', async () => {
    const n0 = (await call('GET', '/api/customer?meta=total_count&limit=1')).json().meta.total_count as number;
    const writes = Array.from({ length: 15 }, (_, i) => call('POST', '/api/customer', { code: `DURING-${i}`, name_th: `ระหว่างสำรอง ${i}`, customer_type: 'individual' }));
    const [made, ...answers] = await Promise.all([call('POST', '/api/db_manage/backup'), ...writes]);
    for (const a of answers) expect(a.statusCode).toBe(201);
    expect(made!.statusCode, made!.body).toBe(201);
    const entry = t.admin.store.get(made!.json().data.id)!;
    const meta = await verifyBackupFile(t.admin.store.pathOf(entry));
    expect(meta.counts.customer).toBeGreaterThanOrEqual(n0);
    expect(meta.counts.customer).toBeLessThanOrEqual(n0 + 15);
    // each customer write is one transaction with its audit row: the backup holds whole writes only
    const res = await call('POST', '/api/db_manage/restore', { id: entry.id });
    expect(res.statusCode, res.body).toBe(200);
    const codes = ((await call('GET', '/api/customer?limit=500&fields=code')).json().data as { code: string }[]).map((c) => c.code);
    expect(codes.length).toBe(meta.counts.customer);
  });

  it('an uploaded backup is verified, listed and restored', async () => {
    const made = await call('POST', '/api/db_manage/backup');
    const entry = t.admin.store.get(made.json().data.id)!;
    const file = readFileSync(t.admin.store.pathOf(entry));
    const before = await snapshot(t.db);
    await call('POST', '/api/customer', { code: 'BEFORE-UPLOAD', name_th: 'ก่อนอัปโหลด', customer_type: 'individual' });
    const { payload, headers } = multipart(entry.file, file);
    const res = await call('POST', '/api/db_manage/restore', payload, headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(await snapshot(t.db)).toEqual(before);
    const list = (await call('GET', '/api/db_manage/backup')).json().data as { origin: string }[];
    expect(list.some((b) => b.origin === 'upload')).toBe(true);
  });

  it('refuses damaged, foreign and newer files before touching anything', async () => {
    const before = await snapshot(t.db);
    const made = await call('POST', '/api/db_manage/backup');
    const entry = t.admin.store.get(made.json().data.id)!;
    const good = readFileSync(t.admin.store.pathOf(entry));
    const damaged = Buffer.from(good);
    if (entry.format === 'sqlite') {
      // the first page stays readable; a page in the middle is overwritten
      damaged.fill(0x5a, Math.floor(good.length / 2), Math.floor(good.length / 2) + 4096);
    } else {
      damaged.fill(0x5a, Math.floor(good.length / 2), Math.floor(good.length / 2) + 64);
    }
    const newer = gzipSync(Buffer.from(`${JSON.stringify({ format: 'thai-backoffice-backup', format_version: 1, schema_version: DATA_SCHEMA_VERSION + 1, schema_hash: null, dialect: 'postgres', created_at: new Date().toISOString(), counts: {} })}\n{"complete":true,"counts":{}}\n`));
    const cases: [string, Buffer, string][] = [
      ['damaged', damaged, 'BACKUP_INVALID'],
      ['text', Buffer.from('hello, not a backup'), 'BACKUP_INVALID'],
      ['truncated', good.subarray(0, Math.floor(good.length / 3)), 'BACKUP_INVALID'],
      ['newer', newer, 'BACKUP_TOO_NEW'],
    ];
    for (const [name, content, code] of cases) {
      const { payload, headers } = multipart(`${name}.bin`, content);
      const res = await call('POST', '/api/db_manage/restore', payload, headers);
      expect({ name, status: res.statusCode, code: res.json().error?.code }, res.body).toEqual({ name, status: code === 'BACKUP_TOO_NEW' ? 409 : 400, code });
    }
    expect(await snapshot(t.db)).toEqual(before);
    expect((await call('POST', '/api/db_manage/restore', { id: 'bk-20000101-000000-000000' })).statusCode).toBe(404);
    expect((await call('POST', '/api/db_manage/restore', {})).json().error.code).toBe('VALIDATION_FAILED');
  });

  it('only administrators manage backups; writes wait behind the gate', async () => {
    const viewer = await call('POST', '/api/user_role', { name: 'Backup viewer', role_detail: { '*': { view: true, edit: true } } });
    const roleId = viewer.json().data.id;
    expect((await call('POST', '/api/user_account', { username: 'notadmin', first_name: 'x', role_id: roleId, inventory_allow: [], branch_company: [] })).statusCode).toBe(201);
    const uid = (await call('GET', `/api/user_account?filter=${encodeURIComponent('{"username":{"_eq":"notadmin"}}')}`)).json().data[0].id;
    await call('PUT' as never, `/api/user_account/${uid}/password`, { password: 'not-admin-pass-1' });
    const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'notadmin', password: 'not-admin-pass-1' } });
    const h = { authorization: `Bearer ${signin.json().data.id_token}` };
    for (const [method, url] of [['POST', '/api/db_manage/backup'], ['GET', '/api/db_manage/backup'], ['POST', '/api/db_manage/restore']] as const) {
      const res = await t.app.inject({ method, url, headers: h, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const paused = await t.admin.gate.closedWhile('test', () => call('POST', '/api/customer', { code: 'GATED', name_th: 'x', customer_type: 'individual' }));
    expect(paused.statusCode).toBe(503);
    expect(paused.json().error.code).toBe('WRITES_PAUSED');
    expect(paused.json().error.message).toMatch(/กู้คืน.*restored/);
    const read = await t.admin.gate.closedWhile('test', () => call('GET', '/api/customer?limit=1'));
    expect(read.statusCode).toBe(200);
  });
});

