/**
 * The system log by day (counts of sign-ins, writes and refused accesses),
 * a day's entries filtered by user, action, entity and IP, one entry with its
 * before/after, the CSV export with the export flag, and no way to change it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';

describe.each(testDialects())('system log days on %s', (dialect) => {
  let t: TestApp;
  let reader: Record<string, string>;
  const today = new Date().toISOString().slice(0, 10);
  const get = (url: string, headers = t.headers) => t.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const role = await t.app.inject({ method: 'POST', url: '/api/user_role', headers: t.headers, payload: { name: 'Log reader', role_detail: { system_log: { view: true } } } });
    const user = await t.app.inject({ method: 'POST', url: '/api/user_account', headers: t.headers, payload: { username: 'logreader', first_name: 'L', role_id: role.json().data.id, inventory_allow: [], branch_company: [] } });
    await t.app.inject({ method: 'PUT', url: `/api/user_account/${user.json().data.id}/password`, headers: t.headers, payload: { password: 'log-reader-pass-1' } });
    const s = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'logreader', password: 'log-reader-pass-1' } });
    reader = { authorization: `Bearer ${s.json().data.id_token}` };
    await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'logreader', password: 'wrong-password' } });
    // a refused access and a write by the reader's own account
    await get('/api/customer', reader);
    await t.app.inject({ method: 'PATCH', url: `/api/user_account/${user.json().data.id}`, headers: reader, payload: { first_name: 'Logger' } });
  });
  afterAll(async () => { await t?.close(); });

  it('answers one row per day with its counts, newest first', async () => {
    // an older day, written the way the audit writer does
    await t.db.kysely.insertInto('system_log').values({ created_at: '2020-01-02T03:04:05.000Z', log_date: '2020-01-02', user_id: null, username: 'old', ip: '10.0.0.1', action: 'signin', entity: null, record_id: null, changes: null, message: null }).execute();
    const res = await get('/api/system_log/days', reader);
    expect(res.statusCode, res.body).toBe(200);
    const days = res.json().data as { date: string; signins: number; writes: number; refused: number; failed_signins: number; total: number }[];
    expect(days.map((d) => d.date)).toEqual([today, '2020-01-02']);
    expect(days[0]!.signins).toBe(2); // admin and the reader
    expect(days[0]!.failed_signins).toBe(1);
    expect(days[0]!.refused).toBe(1);
    expect(days[0]!.writes).toBeGreaterThanOrEqual(4); // role, account, and the reader's own change among them
    expect(days[1]).toEqual({ date: '2020-01-02', total: 1, signins: 1, failed_signins: 0, writes: 0, refused: 0 });
    expect(res.json().meta.total_count).toBe(2);
    expect((await get('/api/system_log/days?limit=1&page=2', reader)).json().data.map((d: { date: string }) => d.date)).toEqual(['2020-01-02']);
    expect((await get('/api/system_log/days?colour=red', reader)).json().error.code).toBe('INVALID_QUERY');
  });

  it('filters a day by user, action, entity and IP, and shows one entry with its before/after', async () => {
    const byUser = (await get(`/api/system_log?date=${today}&user=READER`, reader)).json().data as { username: string }[];
    expect(byUser.length).toBeGreaterThan(0);
    expect(byUser.every((r) => r.username === 'logreader')).toBe(true);
    const updates = (await get(`/api/system_log?date=${today}&action=update&entity=user_account`, reader)).json().data as { id: number; changes: Record<string, unknown> }[];
    expect(updates.length).toBe(1);
    expect(updates[0]!.changes.first_name).toEqual(['L', 'Logger']);
    const one = (await get(`/api/system_log/${updates[0]!.id}`, reader)).json().data;
    expect(one.changes).toEqual(updates[0]!.changes);
    expect((await get(`/api/system_log?date=${today}&ip=127.`, reader)).json().meta.total_count).toBeGreaterThan(0);
    expect((await get(`/api/system_log?date=${today}&ip=10.9.`, reader)).json().meta.total_count).toBe(0);
    expect((await get(`/api/system_log?date=${today}&user=%25`, reader)).json().meta.total_count).toBe(0);
  });

  it('exports CSV with the export flag only, and stays append-only', async () => {
    expect((await get(`/api/system_log/export?date=${today}`, reader)).statusCode).toBe(403);
    const csv = await get(`/api/system_log/export?date=${today}&action=update`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines[0]).toBe('id,created_at,user_id,username,ip,action,entity,record_id,changes,message');
    expect(lines.length).toBeGreaterThan(1);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/api/system_log/days', '/api/system_log/export', '/api/system_log/1']) {
        const res = await t.app.inject({ method, url, headers: t.headers, payload: method === 'DELETE' ? undefined : {} });
        expect(res.statusCode, `${method} ${url}`).toBe(405);
      }
    }
  });
});
