/**
 * Alerts are personal (access.ownerField user_id): the unread count and the
 * alert routes only ever show a user their own alerts, and the count holds
 * only alerts that are theirs, due and unread.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';

type Staff = Awaited<ReturnType<Client['staff']>>;

describe.each(testDialects())('alert count privacy on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  /** A may only view alerts; B may also edit them (which must still not reach A's). */
  let a: Staff;
  let b: Staff;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const count = async (who: Staff) => {
    const res = await call('GET', `/public/alert/user/${who.id}/number/notread`, who.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as number;
  };
  const alertFor = async (userId: number, extra: Record<string, unknown> = {}) => {
    const res = await call('POST', '/api/alert', t.headers, { user_id: userId, title: 'ติดตามลูกค้า', ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };
  const hour = 3600_000;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    a = await c.staff('alice', { alert: { view: true } });
    b = await c.staff('bob', { alert: { view: true, edit: true } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a user whose role has no alert flag still gets the alert screen schema and their own alerts, and nothing of other entities', async () => {
    const plain = await c.staff('carol', { product: { view: true } });
    const mine = await call('POST', '/api/alert', t.headers, { user_id: plain.id, title: 'ของแครอล' });
    expect(mine.statusCode, mine.body).toBe(201);
    expect((await call('GET', '/api/meta/entities/alert', plain.headers)).statusCode).toBe(200);
    const list = await call('GET', '/api/alert', plain.headers);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((r: { title: string }) => r.title)).toEqual(['ของแครอล']);
    expect((await call('GET', '/api/meta/entities/company', plain.headers)).statusCode).toBe(404);
  });

  it("A reading B's count: 403; no token: 401", async () => {
    const res = await call('GET', `/public/alert/user/${b.id}/number/notread`, a.headers);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    expect((await call('GET', `/public/alert/user/${a.id}/number/notread`, {})).statusCode).toBe(401);
    // an id spelled differently is not a way around the check
    for (const id of [`0${b.id}`, `${b.id}.0`, `${b.id}%20`]) {
      const r = await call('GET', `/public/alert/user/${id}/number/notread`, a.headers);
      expect(r.statusCode, `${id}: ${r.body}`).not.toBe(200);
    }
  });

  it('counts only own, due, unread alerts', async () => {
    expect(await count(a)).toBe(0);
    await alertFor(a.id, { due_at: new Date(Date.now() - hour).toISOString() });
    await alertFor(a.id); // due_at defaults to now
    await alertFor(a.id, { due_at: new Date(Date.now() + 24 * hour).toISOString() }); // not due yet
    await alertFor(a.id, { is_read: true, due_at: new Date(Date.now() - hour).toISOString() }); // already read
    await alertFor(b.id, { due_at: new Date(Date.now() - hour).toISOString() }); // someone else's
    expect(await count(a)).toBe(2);
    expect(await count(b)).toBe(1);
    // the other spelling of the count agrees
    const other = await call('GET', '/api/alert/number/notread', a.headers);
    expect(other.json().number_notification_not_read).toBe(2);
  });

  it("A cannot list, read, PATCH or delete B's alerts (404), even with the edit flag", async () => {
    const bAlert = await alertFor(b.id, { title: 'ของบ๊อบ', due_at: new Date(Date.now() - hour).toISOString() });
    const aAlert = await alertFor(a.id, { title: 'ของอลิซ' });

    const listA = await call('GET', '/api/alert?limit=500&meta=total_count', a.headers);
    expect(listA.statusCode, listA.body).toBe(200);
    expect(listA.json().data.every((r: { user_id: number }) => r.user_id === a.id)).toBe(true);
    expect(listA.json().data.map((r: { id: number }) => r.id)).toContain(aAlert);
    expect(listA.json().data.map((r: { id: number }) => r.id)).not.toContain(bAlert);
    // a filter asking for B's alerts still answers only A's
    const filtered = await call('GET', `/api/alert?filter=${encodeURIComponent(JSON.stringify({ user_id: { _eq: b.id } }))}`, a.headers);
    expect(filtered.json().data).toEqual([]);

    expect((await call('GET', `/api/alert/${bAlert}`, a.headers)).statusCode).toBe(404);
    expect((await call('PATCH', `/api/alert/${bAlert}`, a.headers, { is_read: true })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/alert/${bAlert}`, a.headers)).statusCode).not.toBe(200);
    // B has alert edit rights, which still stop at B's own alerts
    expect((await call('GET', `/api/alert/${aAlert}`, b.headers)).statusCode).toBe(404);
    expect((await call('PATCH', `/api/alert/${aAlert}`, b.headers, { is_read: true })).statusCode).toBe(404);
    expect((await call('PUT', `/api/alert/${aAlert}`, b.headers, { user_id: b.id, title: 'taken' })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/alert/${aAlert}`, b.headers)).statusCode).toBe(404);
    // export follows the same rule
    const exp = await call('GET', '/api/alert/export', b.headers);
    if (exp.statusCode === 200) expect(exp.body).not.toContain('ของอลิซ');

    const stillUnread = await t.db.kysely.selectFrom('alert').select('is_read').where('id', 'in', [aAlert, bAlert]).execute();
    expect(stillUnread.map((r) => Number(r.is_read))).toEqual([0, 0]);
  });

  it('A may mark their own alert read but change nothing else of it (view-only role)', async () => {
    const id = await alertFor(a.id, { title: 'อ่านแล้วเปลี่ยน' });
    const retitle = await call('PATCH', `/api/alert/${id}`, a.headers, { title: 'changed' });
    expect(retitle.statusCode, retitle.body).toBe(403);
    const handOver = await call('PATCH', `/api/alert/${id}`, a.headers, { user_id: b.id });
    expect(handOver.statusCode, handOver.body).toBe(403);
    const create = await call('POST', '/api/alert', a.headers, { user_id: b.id, title: 'spam' });
    expect(create.statusCode, create.body).toBe(403);
  });

  it('marking an alert read moves the count (and unread again moves it back); B is untouched', async () => {
    const before = await count(a);
    const bBefore = await count(b);
    const id = await alertFor(a.id, { due_at: new Date(Date.now() - 1000).toISOString() });
    expect(await count(a)).toBe(before + 1);
    const res = await call('PATCH', `/api/alert/${id}`, a.headers, { is_read: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.is_read).toBe(true);
    expect(await count(a)).toBe(before);
    expect((await call('PATCH', `/api/alert/${id}`, a.headers, { is_read: false })).statusCode).toBe(200);
    expect(await count(a)).toBe(before + 1);
    // B (with alert edit rights) cannot read it for A
    expect((await call('PATCH', `/api/alert/${id}`, b.headers, { is_read: true })).statusCode).toBe(404);
    expect(await count(a)).toBe(before + 1);
    await call('PATCH', `/api/alert/${id}`, a.headers, { is_read: true });
    expect(await count(a)).toBe(before);
    expect(await count(b)).toBe(bBefore);
  });
});
