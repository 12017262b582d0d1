/**
 * The unread-alert count pushed over socket.io (`update-alert-number`
 * {notificationNumber}): only to the user concerned, after commit, when an
 * alert is created or read, and when a future alert becomes due (polling
 * every alertPollMs). Handshakes without a valid token are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';
import { connectSocket, connected, createCrmApp, EventLog, listen, refused, sleep, tokenOf } from '../support/crm-fixtures.ts';

type Staff = Awaited<ReturnType<Client['staff']>>;
type Count = { notificationNumber: number };
const EVENT = 'update-alert-number';
/** How long "receives nothing" is watched for: several poll periods and far above a local round trip. */
const QUIET_MS = 700;
const POLL_MS = 200;

describe.each(testDialects())('alert count over socket.io on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let url: string;
  let a: Staff;
  let b: Staff;
  let aLog: EventLog<Count>;
  let bLog: EventLog<Count>;
  const sockets: Socket[] = [];

  const open = (token?: unknown) => {
    const s = connectSocket(url, token);
    sockets.push(s);
    return s;
  };
  const call = (method: 'POST' | 'PATCH' | 'DELETE', path: string, headers: Record<string, string>, payload?: unknown) =>
    t.app.inject({ method, url: path, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const alertFor = async (userId: number, extra: Record<string, unknown> = {}) => {
    const res = await call('POST', '/api/alert', t.headers, { user_id: userId, title: 'โทรกลับลูกค้า', ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };
  const countOf = (n: number) => (p: Count) => p.notificationNumber === n;

  beforeAll(async () => {
    t = await createCrmApp(dialect, { alertPollMs: POLL_MS });
    c = new Client(t);
    a = await c.staff('rt_a', { alert: { view: true } });
    b = await c.staff('rt_b', { alert: { view: true } });
    url = await listen(t.app);
    const sa = open(tokenOf(a.headers));
    const sb = open(tokenOf(b.headers));
    aLog = new EventLog<Count>(sa, EVENT);
    bLog = new EventLog<Count>(sb, EVENT);
    await Promise.all([connected(sa), connected(sb)]);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t?.close();
  });

  describe('handshake', () => {
    it('without a token: connect_error', async () => {
      const err = await refused(open());
      expect(err.message).toMatch(/UNAUTHORIZED/);
    });

    it.each([
      ['a bad token', 'not-a-token'],
      ['a forged token', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl'],
      ['a token that is not a string', { sub: 1 }],
    ])('with %s: connect_error', async (_label, token) => {
      const err = await refused(open(token));
      expect(err.message).toMatch(/UNAUTHORIZED/);
    });

    it('with a token whose session has ended (password reset by the admin): connect_error', async () => {
      const d = await c.staff('rt_d', { alert: { view: true } });
      const reset = await t.app.inject({ method: 'PUT', url: `/api/user_account/${d.id}/password`, headers: t.headers, payload: { password: 'another-long-password' } });
      expect(reset.statusCode, reset.body).toBe(200);
      await refused(open(tokenOf(d.headers)));
    });

    it('the bearer header alone is not enough (the token must be in auth)', async () => {
      const { io } = await import('socket.io-client');
      const s = io(url, { transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { authorization: a.headers.authorization! } });
      sockets.push(s);
      await refused(s);
    });
  });

  it("creating an alert for A moves only A's count; B receives nothing", async () => {
    const from = aLog.received.length;
    bLog.clear();
    await alertFor(a.id);
    expect(await aLog.next(countOf(1), 5000, from)).toEqual({ notificationNumber: 1 });
    await sleep(QUIET_MS);
    expect(bLog.received).toEqual([]);
  });

  it('every socket of the same user gets it (two tabs)', async () => {
    const second = open(tokenOf(a.headers));
    const secondLog = new EventLog<Count>(second, EVENT);
    await connected(second);
    const from = aLog.received.length;
    bLog.clear();
    await alertFor(a.id, { due_at: new Date(Date.now() - 60_000).toISOString() });
    await Promise.all([aLog.next(countOf(2), 5000, from), secondLog.next(countOf(2), 5000, 0)]);
    second.disconnect();
    await sleep(QUIET_MS);
    expect(bLog.received).toEqual([]);
  });

  it('reading the alerts moves the count back; B receives nothing', async () => {
    bLog.clear();
    const ids = (await t.db.kysely.selectFrom('alert').select('id').where('user_id', '=', a.id).where('is_read', '=', 0).execute()).map((r) => Number(r.id));
    expect(ids).toHaveLength(2);
    let from = aLog.received.length;
    const first = await call('PATCH', `/api/alert/${ids[0]}`, a.headers, { is_read: true });
    expect(first.statusCode, first.body).toBe(200);
    await aLog.next(countOf(1), 5000, from);
    from = aLog.received.length;
    await call('PATCH', `/api/alert/${ids[1]}`, a.headers, { is_read: true });
    await aLog.next(countOf(0), 5000, from);
    await sleep(QUIET_MS);
    expect(bLog.received).toEqual([]);
  });

  it('a refused write announces nothing', async () => {
    const from = aLog.received.length;
    const res = await call('POST', '/api/alert', t.headers, { user_id: a.id, title: 'rolled back', working_record_id: 999_999 });
    expect(res.statusCode, res.body).toBe(400);
    await sleep(QUIET_MS);
    // polling may repeat the current count, but never a count that includes the refused alert
    expect(aLog.received.slice(from).filter((p) => p.notificationNumber !== 0)).toEqual([]);
  });

  it('an alert for B reaches B, not A', async () => {
    const from = aLog.received.length;
    bLog.clear();
    await alertFor(b.id);
    await bLog.next(countOf(1), 5000, 0);
    await sleep(QUIET_MS);
    expect(aLog.received.slice(from)).toEqual([]);
  });

  it('a future alert is announced when it becomes due (polling), not before', async () => {
    const created = Date.now();
    const dueAt = created + 1500;
    const from = aLog.received.length;
    bLog.clear();
    await alertFor(a.id, { due_at: new Date(dueAt).toISOString() });
    // on creation the count is pushed without it (not due yet)
    expect(await aLog.next(() => true, 5000, from)).toEqual({ notificationNumber: 0 });
    const due = await aLog.next(countOf(1), 1500 + 10 * POLL_MS + 3000, from);
    expect(due).toEqual({ notificationNumber: 1 });
    const arrived = Date.now();
    expect(arrived).toBeGreaterThanOrEqual(dueAt - 50);
    expect(arrived - dueAt).toBeLessThan(POLL_MS * 10 + 1000);
    // B has a due alert of their own but nothing of theirs changed
    expect(bLog.received).toEqual([]);
  });
});
