/**
 * Issue 8 §8: security headers on every answer, bidirectional controls that
 * cannot disguise an audit entry, and a throttle on guessing the current
 * password through a stolen session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, PASSWORD } from '../support/security-fixtures.ts';

describe.each(testDialects())('headers and small leaks on %s', (dialect) => {
  let t: TestApp;
  let c: Client;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
  });
  afterAll(async () => t?.close());

  it.each([
    ['a list', '/api/product', 200],
    ['an error', '/api/product/999999', 404],
    ['an unknown route', '/nowhere', 404],
  ])('%s carries the security headers', async (_what, url, status) => {
    const res = await c.call('GET', url, c.admin);
    expect(res.statusCode).toBe(status);
    const csp = String(res.headers['content-security-policy']);
    const script = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'));
    expect(script).toBe("script-src 'self' 'unsafe-eval'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('a right-to-left override in a value is stored in the audit log as its escape, not applied', async () => {
    const name = 'ใบเสร็จ\u202Efdp.exe';
    const id = await c.product({ name_th: name });
    const row = await t.db.kysely.selectFrom('system_log').select('changes').where('entity', '=', 'product').where('record_id', '=', String(id)).executeTakeFirstOrThrow();
    const text = String(row.changes);
    expect(text).not.toContain('\u202E');
    expect(JSON.parse(text).name_th[1]).toBe('ใบเสร็จ\\u202efdp.exe');
    // the record itself keeps what was typed
    expect((await c.call('GET', `/api/product/${id}`, c.admin)).json().data.name_th).toBe(name);
  });

  it('a CSV export is sent with nosniff, and bidirectional controls in it are replaced by a visible mark', async () => {
    const id = await c.product({ name_th: 'ใบแจ้งหนี้\u202Efdp.exe' });
    const res = await c.call('GET', `/api/product/export?filter=${encodeURIComponent(JSON.stringify({ id: { _eq: id } }))}`, c.admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(res.body).toContain('ใบแจ้งหนี้\uFFFDfdp.exe');
  });

  it('wrong current passwords are throttled like sign-ins, even before the right one', async () => {
    const u = await c.staff('hl_pw', { product: { view: true } });
    for (let i = 0; i < 5; i++) {
      expectError(await c.call('POST', '/api/auth/password', u.headers, { current_password: `guess-${i}-wrong`, new_password: 'a-new-password-1' }), 400, 'VALIDATION_FAILED');
    }
    const blocked = await c.call('POST', '/api/auth/password', u.headers, { current_password: PASSWORD, new_password: 'a-new-password-1' });
    expectError(blocked, 429, 'RATE_LIMITED');
    expect((await c.signInRaw(u.username, 'a-new-password-1')).statusCode).toBe(401);
    const failures = await t.db.kysely.selectFrom('system_log').select('id').where('action', '=', 'password_change_failed').where('user_id', '=', u.id).execute();
    expect(failures).toHaveLength(5);
  });
});
