/**
 * Issue 8 §5: a socket lives no longer than its session. A sign-out, a
 * deactivation or a change of rights closes it at once (on every instance
 * when Redis links them), telling the client why; sockets from foreign
 * origins are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import type { TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';
import { buildInstance, connectSocket, connected, createCrmApp, EventLog, listen, refused, TEST_REDIS_URL, tokenOf, type Instance } from '../support/crm-fixtures.ts';

const ALLOWED = 'https://office.example.co.th';

describe.each(testDialects())('sockets end with their session on %s', (dialect) => {
  let one: TestApp;
  let two: Instance;
  let c: Client;
  let url1: string;
  let url2: string;
  const sockets: Socket[] = [];

  const open = async (url: string, headers: Record<string, string>) => {
    const s = connectSocket(url, tokenOf(headers));
    sockets.push(s);
    const ended = new EventLog(s, 'session-ended');
    const reauth = new EventLog(s, 'reauthenticate');
    const closed = new Promise<string>((resolve) => s.on('disconnect', (reason) => resolve(reason)));
    await connected(s);
    return { s, ended, reauth, closed };
  };

  beforeAll(async () => {
    const redisKey = `test-sock-${process.pid}-${Date.now().toString(36)}`;
    one = await createCrmApp(dialect, { redisUrl: TEST_REDIS_URL, redisKey, allowedOrigins: [ALLOWED] });
    two = await buildInstance(one.testDb.url, { redisUrl: TEST_REDIS_URL, redisKey });
    c = new Client(one);
    [url1, url2] = [await listen(one.app), await listen(two.app)];
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await two?.close();
    await one?.close();
  });

  it('a sign-out on one instance closes the session\'s sockets on both', async () => {
    const u = await c.staff('sk_out', { alert: { view: true } });
    const here = await open(url1, u.headers);
    const there = await open(url2, u.headers);
    expect((await c.call('POST', '/api/auth/signout', u.headers)).statusCode).toBe(200);
    expect(await here.closed).toBe('io server disconnect');
    expect(await there.closed).toBe('io server disconnect');
    expect(here.ended.received.length + there.ended.received.length).toBe(2);
    // and the token opens no new socket
    const again = connectSocket(url2, tokenOf(u.headers));
    sockets.push(again);
    expect((await refused(again)).message).toMatch(/UNAUTHORIZED/);
  });

  it('a deactivation closes the account\'s sockets', async () => {
    const u = await c.staff('sk_off', { alert: { view: true } });
    const s = await open(url2, u.headers);
    expect((await c.call('PATCH', `/api/user_account/${u.id}`, c.admin, { is_active: false })).statusCode).toBe(200);
    expect(await s.closed).toBe('io server disconnect');
    await s.ended.next();
  });

  it('a change of the role\'s rights asks the socket to authenticate again, and it may', async () => {
    const u = await c.staff('sk_role', { alert: { view: true } });
    const s = await open(url2, u.headers);
    expect((await c.call('PATCH', `/api/user_role/${u.roleId}`, c.admin, { role_detail: { alert: { view: true }, product: { view: true } } })).statusCode).toBe(200);
    expect(await s.closed).toBe('io server disconnect');
    await s.reauth.next();
    expect(s.ended.received).toEqual([]);
    // the token still counts (only the rights moved), so connecting again works and is judged on the new rights
    const back = connectSocket(url2, tokenOf(u.headers));
    sockets.push(back);
    await connected(back);
  });

  it('a socket from a foreign origin is refused; the app\'s own origin and configured ones are not', async () => {
    const u = await c.staff('sk_origin', { alert: { view: true } });
    const withOrigin = (url: string, origin: string) => {
      const s = io(url, { auth: { token: tokenOf(u.headers) }, transports: ['websocket'], reconnection: false, forceNew: true, timeout: 5000, extraHeaders: { origin } });
      sockets.push(s);
      return s;
    };
    expect((await refused(withOrigin(url1, 'https://evil.example.com'))).message).toBeTruthy();
    await connected(withOrigin(url1, ALLOWED));
    await connected(withOrigin(url1, url1));
  });
});
