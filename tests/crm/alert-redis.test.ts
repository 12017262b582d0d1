/**
 * Across server instances: two apps on the same database (a shared SQLite
 * file, or one PostgreSQL database), each with the Redis adapter, listening
 * on two ports. An alert written through instance 1 reaches the user's
 * socket on instance 2 (and on instance 1), and only that user's.
 * Needs Redis at TEST_REDIS_URL (default redis://127.0.0.1:6379).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';
import { buildInstance, connectSocket, connected, createCrmApp, EventLog, listen, sleep, TEST_REDIS_URL, tokenOf, type Instance } from '../support/crm-fixtures.ts';

type Staff = Awaited<ReturnType<Client['staff']>>;
type Count = { notificationNumber: number };
const EVENT = 'update-alert-number';

describe.each(testDialects())('alert count across two instances with Redis on %s', (dialect) => {
  let one: TestApp;
  let two: Instance;
  let c: Client;
  let a: Staff;
  let b: Staff;
  const sockets: Socket[] = [];

  const socketOn = async (url: string, who: Staff) => {
    const s = connectSocket(url, tokenOf(who.headers));
    sockets.push(s);
    const log = new EventLog<Count>(s, EVENT);
    await connected(s);
    return log;
  };
  const alertVia = async (app: TestApp['app'] | Instance['app'], userId: number) => {
    const res = await app.inject({ method: 'POST', url: '/api/alert', headers: one.headers, payload: { user_id: userId, title: 'ข้ามเครื่อง' } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };

  beforeAll(async () => {
    // a key of this run's own: Redis outlives test runs, and sign-in failures counted there must not carry over
    const redisKey = `test-${process.pid}-${Date.now().toString(36)}`;
    // principals are kept 10 minutes instead of 5 s: a session refused here was ended by the
    // invalidation the other instance sent, never by the cache running out
    const principalCacheMs = 600_000;
    one = await createCrmApp(dialect, { redisUrl: TEST_REDIS_URL, redisKey, principalCacheMs });
    two = await buildInstance(one.testDb.url, { redisUrl: TEST_REDIS_URL, redisKey, principalCacheMs });
    c = new Client(one);
    a = await c.staff('rd_a', { alert: { view: true } });
    b = await c.staff('rd_b', { alert: { view: true } });
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await two?.close();
    await one?.close();
  });

  it('an alert created through instance 1 reaches the socket on instance 2', async () => {
    const [url1, url2] = [await listen(one.app), await listen(two.app)];
    expect(url1).not.toBe(url2);
    const aOnTwo = await socketOn(url2, a);
    const aOnOne = await socketOn(url1, a);
    const bOnTwo = await socketOn(url2, b);
    // the token signed by instance 1 is accepted by instance 2 (same secret, same database)
    await alertVia(one.app, a.id);
    // another deployment's events on the same Redis could carry other counts: wait for ours
    await Promise.all([aOnTwo.next((p) => p.notificationNumber === 1), aOnOne.next((p) => p.notificationNumber === 1)]);

    // and the other way round: written through instance 2, read on instance 1
    const [m1, m2] = [aOnOne.mark(), aOnTwo.mark()];
    await alertVia(two.app, a.id);
    await Promise.all([aOnOne.next((p) => p.notificationNumber === 2, 5000, m1), aOnTwo.next((p) => p.notificationNumber === 2, 5000, m2)]);

    await sleep(500);
    expect(bOnTwo.received).toEqual([]);
  });

  it('reading an alert on instance 2 moves the count on instance 1', async () => {
    const url1 = `http://127.0.0.1:${(one.app.server.address() as { port: number }).port}`;
    const aOnOne = await socketOn(url1, a);
    const id = (await one.db.kysely.selectFrom('alert').select('id').where('user_id', '=', a.id).where('is_read', '=', 0).orderBy('id').executeTakeFirstOrThrow()).id;
    const res = await two.app.inject({ method: 'PATCH', url: `/api/alert/${id}`, headers: a.headers, payload: { is_read: true } });
    expect(res.statusCode, res.body).toBe(200);
    await aOnOne.next((p) => p.notificationNumber === 1, 5000);
  });

  it('a sign-out on instance 1 ends the session on instance 2 at once, not after its principal cache runs out', async () => {
    const who = await c.staff('rd_out', { alert: { view: true } });
    // instance 2 now holds this session's principal in its cache
    expect((await two.app.inject({ method: 'GET', url: '/api/alert', headers: who.headers })).statusCode).toBe(200);
    const out = await one.app.inject({ method: 'POST', url: '/api/auth/signout', headers: who.headers });
    expect(out.statusCode, out.body).toBe(200);
    // the sign-out answers once instance 2 acknowledged dropping its cached principals
    // (bounded at 2 s, so a loaded machine may answer before the acknowledgement: then poll)
    await expect.poll(async () => (await two.app.inject({ method: 'GET', url: '/api/alert', headers: who.headers })).statusCode, { interval: 50 }).toBe(401);
  });

  it('failed sign-ins on both instances count together: the sixth is refused on either', async () => {
    const username = `nobody_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const attempt = (app: TestApp['app'] | Instance['app']) => app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username, password: 'wrong-password' } });
    for (const app of [one.app, two.app, one.app, two.app, one.app]) expect((await attempt(app)).statusCode).toBe(401);
    for (const app of [two.app, one.app]) {
      const res = await attempt(app);
      expect(res.statusCode, res.body).toBe(429);
      expect(res.json().error.code).toBe('RATE_LIMITED');
    }
  });

  it('control: without Redis, a second instance does not hear of it', async () => {
    const plain = await buildInstance(one.testDb.url);
    try {
      const log = await socketOn(await listen(plain.app), a);
      await alertVia(one.app, a.id);
      await sleep(700);
      expect(log.received).toEqual([]);
    } finally {
      for (const s of sockets.splice(0)) s.disconnect();
      await plain.close();
    }
  });
});

describe.each(testDialects())('an alert that becomes due, with two instances polling, on %s', (dialect) => {
  let one: TestApp;
  let two: Instance;
  const sockets: Socket[] = [];
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await two?.close();
    await one?.close();
  });

  it('is announced once to each of the user\'s sockets, not once per instance', async () => {
    const redisKey = `test-due-${process.pid}-${Date.now().toString(36)}`;
    one = await createCrmApp(dialect, { redisUrl: TEST_REDIS_URL, redisKey, alertPollMs: 100 });
    two = await buildInstance(one.testDb.url, { redisUrl: TEST_REDIS_URL, redisKey, alertPollMs: 100 });
    const a = await new Client(one).staff('rd_due', { alert: { view: true } });
    const logs: EventLog<Count>[] = [];
    for (const url of [await listen(one.app), await listen(two.app)]) {
      const s = connectSocket(url, tokenOf(a.headers));
      sockets.push(s);
      logs.push(new EventLog<Count>(s, EVENT));
      await connected(s);
    }
    const due = new Date(Date.now() + 600).toISOString();
    const res = await one.app.inject({ method: 'POST', url: '/api/alert', headers: one.headers, payload: { user_id: a.id, title: 'ถึงเวลา', due_at: due } });
    expect(res.statusCode, res.body).toBe(201);
    await Promise.all(logs.map((l) => l.next((p) => p.notificationNumber === 1, 5000)));
    // several poll periods of both instances after it became due
    await sleep(800);
    for (const l of logs) expect(l.received.filter((p) => p.notificationNumber === 1)).toHaveLength(1);
  });
});
