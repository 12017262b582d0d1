/**
 * Account safety through the API: a password change ends every other session
 * of that user (the one that changed it goes on with its new token); a
 * deactivation ends all sessions at once, and a reactivation lets the user
 * sign in again; /api/user_account/{other} answers 404 to a user without
 * user_account view, so /account_edit/{other} has nothing to show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, PASSWORD } from '../support/security-fixtures.ts';

describe.each(testDialects())('account sessions on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let roleId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    roleId = await c.role('Clerk', { customer: { view: true } });
  });
  afterAll(async () => { await t?.close(); });

  const me = (h: Record<string, string>) => c.call('GET', '/api/customer', h);

  it('a password change ends every other session of that user', async () => {
    const id = await c.user('pwuser', { role_id: roleId });
    const laptop = await c.signIn('pwuser');
    const phone = await c.signIn('pwuser');
    expect((await me(laptop)).statusCode).toBe(200);
    expect((await me(phone)).statusCode).toBe(200);
    const changed = await c.call('POST', '/api/auth/password', laptop, { current_password: PASSWORD, new_password: 'a-new-password-123' });
    expect(changed.statusCode, changed.body).toBe(200);
    const fresh = { authorization: `Bearer ${changed.json().data.id_token}` };
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(laptop)).statusCode).toBe(401);
    expect((await me(fresh)).statusCode).toBe(200);
    // the audit log has the change
    const log = await c.call('GET', `/api/system_log?action=password_change&entity=user_account`, c.admin);
    expect(log.json().data.some((r: { record_id: string }) => r.record_id === String(id))).toBe(true);
  });

  it('a deactivation ends the sessions at once; a reactivation lets the user in again', async () => {
    const id = await c.user('deact', { role_id: roleId });
    const h = await c.signIn('deact');
    expect((await me(h)).statusCode).toBe(200);
    const off = await c.call('PATCH', `/api/user_account/${id}`, c.admin, { is_active: false });
    expect(off.statusCode, off.body).toBe(200);
    // no wait: the principal cache is cleared by the write itself
    expect((await me(h)).statusCode).toBe(401);
    expect((await c.signInRaw('deact', PASSWORD)).statusCode).toBe(401);
    expect((await c.call('PATCH', `/api/user_account/${id}`, c.admin, { is_active: true })).statusCode).toBe(200);
    expect((await me(h)).statusCode).toBe(401); // the old session stays ended
    const again = await c.signIn('deact');
    expect((await me(again)).statusCode).toBe(200);
  });

  it("another user's account is not found for a user who may not view accounts", async () => {
    const other = await c.user('someone', { role_id: roleId });
    await c.user('curious', { role_id: roleId });
    const h = await c.signIn('curious');
    expect((await c.call('GET', `/api/user_account/${other}`, h)).statusCode).toBe(404);
    expect((await c.call('PATCH', `/api/user_account/${other}`, h, { first_name: 'x' })).statusCode).toBeGreaterThanOrEqual(403);
  });
});
