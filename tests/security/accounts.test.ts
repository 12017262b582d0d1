/**
 * Accounts and roles: nobody raises their own rights (mass assignment), the
 * built-in Customer role is fixed, sign-in resists guessing, password hashes
 * never leave the server, and every /api route needs a token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, HASH_MARKER, idsOf, PASSWORD, q, type Headers } from '../support/security-fixtures.ts';
import { systemContext } from '../../server/crud/access-policy.ts';

describe.each(testDialects())('accounts and sign-in on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let adminId: number;
  let adminRole: number;
  let company: number;
  let inventory: number;
  let clerk: { id: number; roleId: number; typeId: number; headers: Headers; username: string };
  let manager: { id: number; roleId: number; typeId: number; headers: Headers; username: string };

  const account = async (id: number) => (await c.call('GET', `/api/user_account/${id}`, c.admin)).json().data;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    const admin = (await c.call('GET', `/api/user_account?filter=${q({ username: { _eq: 'admin' } })}`, c.admin)).json().data[0];
    adminId = admin.id;
    adminRole = admin.role_id;
    company = await c.company();
    inventory = await c.inventory(company);
    clerk = await c.staff('clerk', { product: { view: true } }, { inventory: [], company: [] });
    // a manager may administer accounts, roles and user types, but not their own
    const adminFlags = { view: true, edit: true };
    manager = await c.staff('manager', { user_account: adminFlags, user_role: adminFlags, user_type: adminFlags, product: { view: true } });
  });
  afterAll(async () => t?.close());

  describe('mass assignment on one\'s own account', () => {
    const cases: [string, () => unknown][] = [
      ['role_id', () => adminRole],
      ['user_type_id', () => null],
      ['inventory_allow', () => [inventory]],
      ['branch_company', () => [company]],
      ['is_active', () => false],
      // the field rules judge what a write changes: null → a customer is a change (null → null is not)
      ['customer_id', () => 1],
      ['username', () => 'renamed_self'],
    ];
    it.each(cases)('PATCHing own %s → 403, nothing changed', async (field, value) => {
      const before = await account(clerk.id);
      const res = await c.call('PATCH', `/api/user_account/${clerk.id}`, clerk.headers, { first_name: 'sneaky', [field]: value() });
      expectError(res, 403, 'FIELD_FORBIDDEN');
      expect(res.json().error.details.fields.map((f: { field: string }) => f.field)).toEqual([field]);
      expect(res.json().error.message).toContain(field);
      expect(await account(clerk.id)).toEqual(before);
    });

    it('PUT of the whole own account with a raised role → 403, nothing changed', async () => {
      const before = await account(clerk.id);
      const { id: _id, created_at: _ca, updated_at: _ua, created_by: _cb, updated_by: _ub, ...rest } = before;
      expectError(await c.call('PUT', `/api/user_account/${clerk.id}`, clerk.headers, { ...rest, role_id: adminRole }), 403, 'FIELD_FORBIDDEN');
      expect(await account(clerk.id)).toEqual(before);
    });

    it('harmless own fields may be changed; the rights stay the same', async () => {
      const res = await c.call('PATCH', `/api/user_account/${clerk.id}`, clerk.headers, { first_name: 'Clerk', email: 'clerk@example.com' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ id: clerk.id, first_name: 'Clerk', role_id: clerk.roleId });
    });

    it('a manager with user_account edit may not raise themselves either, nor delete themselves', async () => {
      expectError(await c.call('PATCH', `/api/user_account/${manager.id}`, manager.headers, { role_id: adminRole }), 403, 'FIELD_FORBIDDEN');
      expectError(await c.call('DELETE', `/api/user_account/${manager.id}`, manager.headers), 403, 'FORBIDDEN');
      expectError(await c.call('PUT', `/api/user_account/${manager.id}/password`, manager.headers, { password: 'no-current-needed' }), 403, 'FORBIDDEN');
      expect((await account(manager.id)).role_id).toBe(manager.roleId);
    });

    it('a clerk cannot edit or set the password of someone else', async () => {
      expectError(await c.call('PATCH', `/api/user_account/${adminId}`, clerk.headers, { first_name: 'x' }), 404, 'NOT_FOUND');
      expectError(await c.call('PUT', `/api/user_account/${adminId}/password`, clerk.headers, { password: 'take-over-admin' }), 403, 'FORBIDDEN');
      expectError(await c.call('POST', '/api/user_account', clerk.headers, { username: 'newadmin', role_id: adminRole }), 403, 'FORBIDDEN');
      await c.signIn('admin', 'admin-password-for-tests');
    });

    it('writing id or created_by → 400 READ_ONLY_FIELD and nothing changed', async () => {
      const before = await account(clerk.id);
      for (const body of [{ id: adminId }, { created_by: clerk.id }, { created_at: '2020-01-01T00:00:00Z' }, { updated_by: adminId }]) {
        const res = await c.call('PATCH', `/api/user_account/${clerk.id}`, clerk.headers, body);
        expectError(res, 400, 'READ_ONLY_FIELD');
      }
      expect(await account(clerk.id)).toEqual(before);
      const res = await c.call('POST', '/api/product', c.admin, { id: 424242, code: 'RO-1', name_th: 'x', unit: 'ชิ้น', created_by: clerk.id });
      expectError(res, 400, 'READ_ONLY_FIELD');
      expect(res.json().error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['created_by', 'id']);
    });

    it('unknown fields are refused, not silently stored (password_hash, token_version)', async () => {
      for (const field of ['password_hash', 'token_version', 'password']) {
        expectError(await c.call('PATCH', `/api/user_account/${clerk.id}`, clerk.headers, { [field]: 'x' }), 400, 'UNKNOWN_FIELD');
      }
    });
  });

  describe('roles and user types', () => {
    it('nobody can change their own role\'s role_detail — not even the admin', async () => {
      const res = await c.call('PATCH', `/api/user_role/${manager.roleId}`, manager.headers, { role_detail: { '*': { view: true, edit: true, export: true, print: true, email: true } } });
      expectError(res, 403, 'FORBIDDEN');
      const role = (await c.call('GET', `/api/user_role/${manager.roleId}`, c.admin)).json().data;
      expect(role.role_detail['*']).toBeUndefined();
      expectError(await c.call('PATCH', `/api/user_role/${adminRole}`, c.admin, { role_detail: {} }), 403, 'FORBIDDEN');
      expectError(await c.call('DELETE', `/api/user_role/${manager.roleId}`, manager.headers), 403, 'FORBIDDEN');
    });

    it('nobody can loosen the user type that applies to themselves', async () => {
      expectError(await c.call('PATCH', `/api/user_type/${manager.typeId}`, manager.headers, { is_show_all_menu: true }), 403, 'FORBIDDEN');
      expectError(await c.call('POST', '/api/user_type', manager.headers, { name: c.next('mine '), role_id: manager.roleId }), 403, 'FORBIDDEN');
      // nor re-point another type at their own role
      const otherRole = await c.role(c.next('spare '), {});
      const otherType = await c.userType(c.next('spare type '), otherRole);
      expectError(await c.call('PATCH', `/api/user_type/${otherType}`, manager.headers, { role_id: manager.roleId }), 403, 'FORBIDDEN');
      expect((await c.call('GET', `/api/user_type/${otherType}`, c.admin)).json().data.role_id).toBe(otherRole);
    });

    it('the manager may edit other roles (control case)', async () => {
      const otherRole = await c.role(c.next('editable '), {});
      const res = await c.call('PATCH', `/api/user_role/${otherRole}`, manager.headers, { description: 'edited' });
      expect(res.statusCode, res.body).toBe(200);
    });

    it('the built-in Customer role -1 cannot be edited or deleted, even by the admin', async () => {
      const before = (await c.call('POST', '/api/role/id', c.admin, { role_id: -1 })).json().role_data;
      expectError(await c.call('PATCH', '/api/user_role/-1', c.admin, { role_detail: { '*': { view: true } } }), 404, 'NOT_FOUND');
      expectError(await c.call('PUT', '/api/user_role/-1', c.admin, { name: 'Customer', role_detail: { '*': { view: true } } }), 404, 'NOT_FOUND');
      expectError(await c.call('DELETE', '/api/user_role/-1', c.admin), 404, 'NOT_FOUND');
      // the route refuses negative ids; the policy refuses the change on its own too
      const adminCtx = { userId: adminId, ip: null, principal: await t.auth.principalFor(c.admin.authorization!.slice(7)) };
      await expect(t.service.update('user_role', -1, { role_detail: { '*': { view: true } } }, adminCtx, 'patch')).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(t.service.remove('user_role', -1, adminCtx)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      // a stored row that someone changed behind the API does not widen the role: the code is authoritative
      await t.db.kysely.updateTable('user_role').set({ role_detail: JSON.stringify({ '*': { view: true, export: true } }) }).where('id', '=', -1).execute();
      t.auth.invalidate();
      expect((await c.call('POST', '/api/role/id', c.admin, { role_id: -1 })).json().role_data).toEqual(before);
      expect(await t.service.get('user_role', -1, systemContext)).toBeTruthy();
    });

    it('a new role cannot take the id -1 or any id', async () => {
      expectError(await c.call('POST', '/api/user_role', c.admin, { id: -1, name: c.next('fake customer '), role_detail: {} }), 400, 'READ_ONLY_FIELD');
    });
  });

  describe('brute force', () => {
    it('the 6th wrong password for the same IP+username → 429 RATE_LIMITED, and the right password is refused too', async () => {
      const u = await c.staff('victim', { product: { view: true } });
      const ip = '10.0.0.6';
      for (let i = 0; i < 5; i++) expectError(await c.signInRaw(u.username, 'wrong-password', undefined, ip), 401, 'UNAUTHORIZED');
      const limited = await c.signInRaw(u.username, 'wrong-password', undefined, ip);
      expectError(limited, 429, 'RATE_LIMITED');
      expect(limited.json().error.message).toMatch(/Too many failed sign-in attempts; try again in \d+ minute/);
      expect(limited.json().error.details.retry_after_seconds).toBeGreaterThan(0);
      expectError(await c.signInRaw(u.username, PASSWORD, undefined, ip), 429, 'RATE_LIMITED');
      expectError(await c.signInRaw(u.username.toUpperCase(), PASSWORD, undefined, ip), 429, 'RATE_LIMITED');
      // another address is counted apart, so the real user is not locked out everywhere
      expect((await c.signInRaw(u.username, PASSWORD, undefined, '10.0.0.7')).statusCode).toBe(200);
    });

    it('one IP guessing across many usernames is limited too', async () => {
      const ip = '10.0.0.99';
      let status = 0;
      for (let i = 0; i < 31 && status !== 429; i++) status = (await c.signInRaw(`nobody${i}`, 'wrong-password', undefined, ip)).statusCode;
      expect(status).toBe(429);
    });

    it('the answer is identical for an unknown user and a wrong password', async () => {
      const u = await c.staff('probe', { product: { view: true } });
      const unknown = await c.signInRaw('no_such_user_anywhere', 'wrong-password', undefined, '10.0.1.1');
      const wrong = await c.signInRaw(u.username, 'wrong-password', undefined, '10.0.1.2');
      expect(unknown.statusCode).toBe(401);
      expect(wrong.statusCode).toBe(401);
      expect(unknown.body).toBe(wrong.body);
      expect(unknown.json().error.message).toBe('Incorrect username or password');
      const inactive = await c.staff('inactive', { product: { view: true } });
      await c.call('PATCH', `/api/user_account/${inactive.id}`, c.admin, { is_active: false });
      expect((await c.signInRaw(inactive.username, PASSWORD, undefined, '10.0.1.3')).body).toBe(wrong.body);
    });

    it('malformed sign-in bodies are refused without a token', async () => {
      for (const payload of [{}, { username: 'admin' }, { username: ['admin'], password: 'x' }, { username: 'a'.repeat(65), password: 'x' }]) {
        expectError(await c.call('POST', '/api/auth/signin', null, payload, { remoteAddress: '10.0.2.1' }), 400, 'VALIDATION_FAILED');
      }
    });
  });

  describe('password hashes never leave the server', () => {
    it('no account read answers a hash (list, get, fields, export, user lookup, sign-in, system log)', async () => {
      const urls = [
        '/api/user_account', `/api/user_account/${clerk.id}`, '/api/user_account/export', '/api/user_account?limit=500&meta=total_count',
        `/api/user_account?search=${encodeURIComponent('scrypt')}`, '/api/system_log?limit=500', '/api/meta/entities/user_account',
      ];
      for (const url of urls) {
        const res = await c.call('GET', url, c.admin);
        expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
        expect(res.body).not.toContain(HASH_MARKER);
        expect(res.body).not.toContain('password_hash');
      }
      const lookup = await c.call('POST', '/api/user/id', c.admin, { user_id: clerk.id });
      expect(lookup.statusCode).toBe(200);
      const signin = await c.signInRaw(clerk.username, PASSWORD);
      for (const res of [lookup, signin]) expect(res.body).not.toMatch(/scrypt\$|password/);
      expectError(await c.call('GET', `/api/user_account?fields=password_hash`, c.admin), 400, 'UNKNOWN_FIELD');
      expectError(await c.call('GET', `/api/user_account?filter=${q({ password_hash: { _starts_with: 'scrypt' } })}`, c.admin), 400, 'UNKNOWN_FIELD');
      expectError(await c.call('GET', '/api/user_credential', c.admin), 404, 'NOT_FOUND');
    });
  });

  describe('without a token', () => {
    const GUARDED = [
      ['GET', '/api/product'], ['GET', '/api/billing_note'], ['GET', '/api/customer'], ['GET', '/api/inventory'], ['GET', '/api/stock_movement'],
      ['GET', '/api/your_company'], ['GET', '/api/user_account'], ['GET', '/api/user_role'], ['GET', '/api/user_type'], ['GET', '/api/staff'],
      ['GET', '/api/billing_note_item'], ['GET', '/api/product/1'], ['GET', '/api/product/export'], ['POST', '/api/product'], ['POST', '/api/product/bulk'], ['PATCH', '/api/product/1'],
      ['PUT', '/api/product/1'], ['DELETE', '/api/product/1'], ['GET', '/api/meta/entities'], ['GET', '/api/meta/entities/product'], ['GET', '/api/menu'],
      ['GET', '/api/system_log'], ['GET', '/api/system_log/1'], ['GET', '/api/settingsite/1'], ['GET', '/api/language/content/website_main'],
      ['POST', '/api/role/id'], ['POST', '/api/user_type/role'], ['GET', '/api/user_type/by_role/1'], ['GET', '/api/alert/number/notread'],
      ['GET', '/public/alert/user/1/number/notread'], ['POST', '/api/user/id'], ['POST', '/api/auth/signout'], ['POST', '/api/auth/password'],
      ['PUT', '/api/user_account/1/password'], ['GET', '/api/no_such_entity'],
      // path tricks must not slip past the guard
      ['GET', '/api/settingsite/1?x=/api/auth/signin'], ['GET', '/api/product?/api/auth/signin'], ['GET', '/%61pi/settingsite/1'], ['GET', '/%61pi/language/content/website_main'], ['GET', '/%61pi/menu'],
      ['GET', '/api/%73ettingsite/1'], ['GET', '/%61pi/product'], ['GET', '/api/auth/signin/../../product'],
    ] as const;
    it.each(GUARDED)('%s %s → 401 UNAUTHORIZED (or no such route), never data', async (method, url) => {
      const res = await c.call(method, url, null, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect([401, 404], `${method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(res.statusCode);
      expect(res.json().success).toBe(false);
      if (url.startsWith('/api/') && !url.includes('%') && !url.includes('..') && !url.includes('no_such')) expectError(res, 401, 'UNAUTHORIZED');
    });

    it('sign-in, the language list and the customer menu answer without a token', async () => {
      const lang = await c.call('GET', '/public/language', null);
      expect(lang.statusCode, lang.body).toBe(200);
      expect(lang.json().success).toBe(true);
      const menu = await c.call('GET', '/public/menu/customer', null);
      expect(menu.statusCode).toBe(200);
      expect(menu.json().data[0].submenu[0].keyAction).toBe('billing_note');
      const signin = await c.signInRaw(clerk.username, PASSWORD);
      expect(signin.statusCode).toBe(200);
      expect(typeof signin.json().data.id_token).toBe('string');
    });
  });

  describe('session calls (spec section 7)', () => {
    it('/public/alert/user/{other}/number/notread → 403; own → 200', async () => {
      expectError(await c.call('GET', `/public/alert/user/${adminId}/number/notread`, clerk.headers), 403, 'FORBIDDEN');
      expectError(await c.call('GET', `/public/alert/user/${clerk.id}0/number/notread`, clerk.headers), 403, 'FORBIDDEN');
      const own = await c.call('GET', `/public/alert/user/${clerk.id}/number/notread`, clerk.headers);
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json()).toEqual({ success: true, data: 0 });
    });

    it('POST /api/user/id with an absent id → "not found userId"', async () => {
      const absent = await c.call('POST', '/api/user/id', c.admin, { user_id: 987654 });
      expectError(absent, 404, 'NOT_FOUND');
      expect(absent.json().error.message).toBe('not found userId');
      const missing = await c.call('POST', '/api/user/id', c.admin, {});
      expectError(missing, 400, 'VALIDATION_FAILED');
      expect(missing.json().error.message).toBe('not found userId');
      // someone else's id answers the same as an absent one for a user who may not view accounts
      const other = await c.call('POST', '/api/user/id', clerk.headers, { user_id: adminId });
      expect(other.body).toBe(absent.body);
    });

    it('roles and user types of other roles are not readable without user_role view', async () => {
      expectError(await c.call('POST', '/api/role/id', clerk.headers, { role_id: adminRole }), 403, 'FORBIDDEN');
      expectError(await c.call('POST', '/api/user_type/role', clerk.headers, { role_id: adminRole }), 403, 'FORBIDDEN');
      expectError(await c.call('GET', `/api/user_type/by_role/${adminRole}`, clerk.headers), 403, 'FORBIDDEN');
      expect((await c.call('POST', '/api/role/id', clerk.headers, { role_id: clerk.roleId })).json().role_data[0].id).toBe(clerk.roleId);
    });

    it('the staff menu lists only what the role may view', async () => {
      const res = await c.call('GET', '/api/menu', clerk.headers);
      const keys = (res.json().data as { submenu: { keyAction: string }[] }[]).flatMap((g) => g.submenu.map((s) => s.keyAction));
      expect(keys).toEqual(['product']);
      const entities = (await c.call('GET', '/api/meta/entities', clerk.headers)).json().data.map((e: { name: string }) => e.name).sort();
      // plus what everyone may read of their own: their account and their alerts; and product's own lines (its attribute values)
      expect(entities).toEqual(['alert', 'product', 'product_attribute_value', 'user_account']);
      expectError(await c.call('GET', '/api/meta/entities/billing_note', clerk.headers), 404, 'NOT_FOUND');
    });

    /** created_by links to user_account; a clerk without user_account view must not read other accounts through it. */
    it('a staff user without user_account view cannot read other accounts through created_by', async () => {
      await c.product();
      // issue 38 §9: columns the role may not read are left out of the list (never answered), the rest still comes
      const res = await c.call('GET', `/api/product?fields=${encodeURIComponent('id,created_by.username,created_by.email,created_by.role_id')}`, clerk.headers);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.length).toBeGreaterThan(0);
      for (const row of res.json().data) expect(Object.keys(row)).toEqual(['id']);
      expect(res.body).not.toContain('"admin"');
      expectError(await c.call('GET', `/api/product?sort=${encodeURIComponent('created_by.username')}`, clerk.headers), 403, 'FIELD_FORBIDDEN');
    });

    it('sorting or filtering on a field of an entity the user may not view → 403 FIELD_FORBIDDEN; as a column it is left out', async () => {
      for (const url of [
        `/api/product?sort=${encodeURIComponent('default_supplier_id.name_th')}`,
        `/api/product?filter=${q({ 'default_supplier_id.tax_id': { _nnull: true } })}`,
        `/api/product?filter=${q({ default_supplier_id: { name_th: { _eq: 'x' } } })}`,
      ]) {
        const res = await c.call('GET', url, clerk.headers);
        expectError(res, 403, 'FIELD_FORBIDDEN');
        expect(res.json().error.message).toContain('supplier');
      }
      // asked as a column, it is left out rather than refusing the list (issue 38 §9)
      const listed = await c.call('GET', `/api/product?fields=${encodeURIComponent('id,default_supplier_id.name_th')}`, clerk.headers);
      expect(listed.statusCode, listed.body).toBe(200);
      for (const row of listed.json().data) expect(Object.keys(row)).toEqual(['id']);
      expect(idsOf(await c.call('GET', `/api/product?sort=${encodeURIComponent('default_supplier_id')}`, clerk.headers))).toBeInstanceOf(Array);
    });
  });

  it('no response carried a password hash', () => c.assertNoHashLeaked());
});
