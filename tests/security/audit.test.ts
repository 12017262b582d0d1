/**
 * The audit trail (system_log): one row per kind of event, readable by date
 * and by id, never alterable through the API, and safe against log injection.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, PASSWORD, today, type Headers } from '../support/security-fixtures.ts';

interface LogRow {
  id: number;
  created_at: string;
  log_date: string;
  user_id: number | null;
  username: string | null;
  ip: string | null;
  action: string;
  entity: string | null;
  record_id: string | null;
  changes: Record<string, [unknown, unknown]> | null;
  message: string | null;
}

describe.each(testDialects())('audit log on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let adminId: number;
  let clerk: { id: number; headers: Headers; username: string };

  /** Every row of today's log, newest first. */
  const log = async (): Promise<LogRow[]> => {
    const res = await c.call('GET', `/api/system_log?date=${today()}&limit=500`, c.admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  /** access_denied rows are written in onResponse, after the answer is sent, so a lookup waits briefly for them. */
  const find = async (pred: (r: LogRow) => boolean): Promise<LogRow> =>
    vi.waitFor(async () => {
      const row = (await log()).find(pred);
      expect(row, 'expected audit row').toBeDefined();
      return row!;
    }, { timeout: 10_000, interval: 50 });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    adminId = (await c.call('GET', '/api/user_account?filter=' + encodeURIComponent('{"username":{"_eq":"admin"}}'), c.admin)).json().data[0].id;
    clerk = await c.staff('auditclerk', { product: { view: true } });
  });
  afterAll(async () => t?.close());

  it('create, update (before/after of changed fields only) and delete are logged with who did it', async () => {
    const id = await c.product({ price: 100 });
    const created = await find((r) => r.action === 'create' && r.entity === 'product' && r.record_id === String(id));
    expect(created).toMatchObject({ user_id: adminId, username: 'admin', ip: '127.0.0.1', log_date: today() });
    expect(created.changes!.price).toEqual([null, 100]);

    expect((await c.call('PATCH', `/api/product/${id}`, c.admin, { price: 120, name_th: 'ชื่อใหม่' })).statusCode).toBe(200);
    const updated = await find((r) => r.action === 'update' && r.entity === 'product' && r.record_id === String(id));
    expect(updated.user_id).toBe(adminId);
    expect(updated.changes!.price).toEqual([100, 120]);
    expect(updated.changes!.name_th![1]).toBe('ชื่อใหม่');
    expect(Object.keys(updated.changes!).sort()).toEqual(['name_th', 'price']);

    expect((await c.call('DELETE', `/api/product/${id}`, c.admin)).statusCode).toBe(200);
    const deleted = await find((r) => r.action === 'delete' && r.entity === 'product' && r.record_id === String(id));
    expect(deleted.user_id).toBe(adminId);

    const one = await c.call('GET', `/api/system_log/${updated.id}`, c.admin);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data).toEqual(updated);
  });

  it('a refused write is not logged as a change, but as access_denied', async () => {
    const res = await c.call('POST', '/api/product', clerk.headers, { code: 'DENIED-1', name_th: 'x', unit: 'ชิ้น' });
    expectError(res, 403, 'FORBIDDEN');
    const denied = await find((r) => r.action === 'access_denied' && r.user_id === clerk.id);
    expect(denied).toMatchObject({ username: clerk.username, entity: 'product', message: 'POST /api/product answered 403' });
    const rows = await log();
    expect(rows.some((r) => r.action === 'create' && r.entity === 'product' && JSON.stringify(r.changes).includes('DENIED-1'))).toBe(false);
  });

  it('a request without a valid token is logged as access_denied with no user', async () => {
    expectError(await c.call('GET', '/api/customer?probe=1', { authorization: 'Bearer forged.token.here' }), 401, 'UNAUTHORIZED');
    const row = await find((r) => r.action === 'access_denied' && r.message === 'GET /api/customer?probe=1 answered 401');
    expect(row).toMatchObject({ user_id: null, username: null, entity: 'customer' });
  });

  it('signin, signin_failed and signout are logged', async () => {
    const h = await c.signIn(clerk.username);
    const signin = await find((r) => r.action === 'signin' && r.user_id === clerk.id);
    expect(signin.username).toBe(clerk.username);
    expectError(await c.signInRaw(clerk.username, 'wrong-password', undefined, '10.9.9.9'), 401, 'UNAUTHORIZED');
    const failed = await find((r) => r.action === 'signin_failed' && r.username === clerk.username);
    expect(failed).toMatchObject({ user_id: clerk.id, ip: '10.9.9.9' });
    expectError(await c.signInRaw('nobody_here', 'wrong-password', undefined, '10.9.9.8'), 401, 'UNAUTHORIZED');
    expect(await find((r) => r.action === 'signin_failed' && r.username === 'nobody_here')).toMatchObject({ user_id: null });
    expect((await c.call('POST', '/api/auth/signout', h)).statusCode).toBe(200);
    await find((r) => r.action === 'signout' && r.user_id === clerk.id);
  });

  it('password changes are logged, never with the password', async () => {
    const u = await c.staff('auditpw', { product: { view: true } });
    expect((await c.call('PUT', `/api/user_account/${u.id}/password`, c.admin, { password: 'secret-new-password-1' })).statusCode).toBe(200);
    const row = await find((r) => r.action === 'password_change' && r.record_id === String(u.id));
    expect(row.user_id).toBe(adminId);
    expect(JSON.stringify(await log())).not.toMatch(/secret-new-password-1|scrypt\$|correct-horse/);
    expect(PASSWORD).toBe('correct-horse-battery');
  });

  it('reading by date: another day is empty, a bad date is refused', async () => {
    const res = await c.call('GET', '/api/system_log?date=1999-01-01', c.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
    expectError(await c.call('GET', `/api/system_log?date=${encodeURIComponent("2024-01-01' or 1=1 --")}`, c.admin), 400, 'INVALID_QUERY');
    expectError(await c.call('GET', '/api/system_log/999999999', c.admin), 404, 'NOT_FOUND');
  });

  it('only roles with system_log view read it', async () => {
    expectError(await c.call('GET', `/api/system_log?date=${today()}`, clerk.headers), 403, 'FORBIDDEN');
    expectError(await c.call('GET', '/api/system_log/1', clerk.headers), 403, 'FORBIDDEN');
    const auditor = await c.staff('auditor', { system_log: { view: true } });
    expect((await c.call('GET', `/api/system_log?date=${today()}`, auditor.headers)).statusCode).toBe(200);
  });

  it.each([['POST'], ['PUT'], ['PATCH'], ['DELETE']] as const)('%s on the system log → 405 and nothing changes', async (method) => {
    const before = await log();
    const target = before[before.length - 1]!;
    for (const url of ['/api/system_log', `/api/system_log/${target.id}`]) {
      const res = await c.call(method, url, c.admin, method === 'DELETE' ? undefined : { action: 'signin', message: 'forged' });
      expectError(res, 405, 'METHOD_NOT_ALLOWED');
    }
    const after = await c.call('GET', `/api/system_log/${target.id}`, c.admin);
    expect(after.json().data).toEqual(target);
    expect((await log()).some((r) => r.message === 'forged')).toBe(false);
  });

  it('a username with a newline and control characters is stored escaped', async () => {
    const evil = 'ghost\nsignin admin ok\r\u0007\u001b[31m\u2028x';
    expectError(await c.signInRaw(evil, 'wrong-password', undefined, '10.9.9.7'), 401, 'UNAUTHORIZED');
    const stored = await t.db.kysely.selectFrom('system_log').selectAll().where('action', '=', 'signin_failed').where('ip', '=', '10.9.9.7').execute();
    expect(stored).toHaveLength(1);
    const row = stored[0]!;
    // (the sign-in route trims surrounding whitespace, so the inner characters matter)
    for (const field of ['username', 'message', 'ip', 'entity'] as const) {
      const v = row[field] as string | null;
      if (v !== null) expect(v, field).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    }
    expect(row.username).toBe('ghost\\u000asignin admin ok\\u000d\\u0007\\u001b[31m\\u2028x');
    const api = await find((r) => r.action === 'signin_failed' && r.ip === '10.9.9.7');
    expect(api.username).toBe(row.username);
  });

  it('control characters in a refused URL do not reach the stored message raw', async () => {
    expectError(await c.call('GET', '/api/customer?x=%0Aforged%20line%0D', { authorization: 'Bearer nope' }), 401, 'UNAUTHORIZED');
    await find((r) => r.action === 'access_denied' && (r.message ?? '').includes('forged'));
    const rows = await t.db.kysely.selectFrom('system_log').select(['message', 'entity']).where('action', '=', 'access_denied').execute();
    for (const r of rows) expect(`${r.message}${r.entity}`).not.toMatch(/[\u0000-\u001f]/);
  });

  it('no response carried a password hash', () => c.assertNoHashLeaked());
});
