/**
 * Issue 8 §3: user administration never escalates. Nobody grants a role, a
 * user type or allowances beyond their own; only a full administrator assigns
 * the Administrator role; an account or role that holds more than the caller
 * is out of their reach; the last active administrator stays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, PASSWORD, q } from '../support/security-fixtures.ts';
import { authEntities } from '../../server/auth/auth-entities.ts';
import { guardAccountWrite } from '../../server/auth/account-guard.ts';

const ADMIN_FLAGS = { view: true, edit: true, print: true, export: true, email: true };
const EDIT = { view: true, edit: true };

describe.each(testDialects())('grant limits on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let adminRole: number;
  let adminId: number;
  let inv1: number;
  let inv2: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    const found = await c.call('GET', `/api/user_account?filter=${q({ username: { _eq: 'admin' } })}`, c.admin);
    adminId = found.json().data[0].id;
    adminRole = found.json().data[0].role_id;
    inv1 = await c.inventory(null);
    inv2 = await c.inventory(null);
  });
  afterAll(async () => t?.close());

  const account = (id: number) => c.call('GET', `/api/user_account/${id}`, c.admin).then((r) => r.json().data);

  it('an account administrator cannot make an Administrator, nor sign in as one', async () => {
    const hr = await c.staff('gl_hr', { user_account: EDIT, user_role: { view: true } });
    const res = await c.call('POST', '/api/user_account', hr.headers, { username: 'mallory', first_name: 'M', role_id: adminRole, inventory_allow: [], branch_company: [] });
    expectError(res, 403, 'FORBIDDEN');
    expect(res.json().error.message).toMatch(/Administrator/);
    expect((await c.call('GET', `/api/user_account?filter=${q({ username: { _eq: 'mallory' } })}`, c.admin)).json().data).toEqual([]);
    // without view on roles the role does not even exist for them
    const blind = await c.staff('gl_blind', { user_account: EDIT });
    expectError(await c.call('POST', '/api/user_account', blind.headers, { username: 'mallory2', first_name: 'M', role_id: adminRole, inventory_allow: [], branch_company: [] }), 400, 'VALIDATION_FAILED');
  });

  it('nobody grants a role with flags they do not hold, nor gives one to an account', async () => {
    const mgr = await c.staff('gl_mgr', { user_account: EDIT, user_role: EDIT, product: { view: true } });
    expectError(await c.call('POST', '/api/user_role', mgr.headers, { name: 'Product editors', role_detail: { product: EDIT } }), 403, 'FORBIDDEN');
    const ok = await c.call('POST', '/api/user_role', mgr.headers, { name: 'Product viewers', role_detail: { product: { view: true } } });
    expect(ok.statusCode, ok.body).toBe(201);
    const bigger = await c.role('Product editors (admin-made)', { product: EDIT });
    expectError(await c.call('POST', '/api/user_account', mgr.headers, { username: c.next('gl_u'), first_name: 'U', role_id: bigger, inventory_allow: [], branch_company: [] }), 403, 'FORBIDDEN');
    expect((await c.call('POST', '/api/user_account', mgr.headers, { username: c.next('gl_u'), first_name: 'U', role_id: ok.json().data.id, inventory_allow: [], branch_company: [] })).statusCode).toBe(201);
    // nor widen a role that holds more than they do
    expectError(await c.call('PATCH', `/api/user_role/${bigger}`, mgr.headers, { name: 'renamed' }), 403, 'FORBIDDEN');
  });

  it('an account administrator cannot deactivate, reset or delete an account that holds more', async () => {
    const hr = await c.staff('gl_hr2', { user_account: EDIT, user_role: { view: true } });
    const before = await account(adminId);
    expectError(await c.call('PATCH', `/api/user_account/${adminId}`, hr.headers, { is_active: false }), 403, 'FORBIDDEN');
    expectError(await c.call('PUT', `/api/user_account/${adminId}/password`, hr.headers, { password: 'taken-over-now' }), 403, 'FORBIDDEN');
    expectError(await c.call('DELETE', `/api/user_account/${adminId}`, hr.headers), 403, 'FORBIDDEN');
    expect(await account(adminId)).toEqual(before);
    expect((await c.signInRaw('admin', 'taken-over-now')).statusCode).toBe(401);
  });

  it('a user limited to some inventories grants no more inventories, and no unlimited user type', async () => {
    const lead = await c.staff('gl_lead', { user_account: EDIT, user_role: { view: true }, user_type: EDIT, inventory: { view: true } }, { inventory: [inv1] });
    const roleId = await c.role(c.next('gl_r'), { inventory: { view: true } });
    const open = await c.userType(c.next('gl_open'), roleId);
    const limited = await c.userType(c.next('gl_lim'), roleId, { inventory: true });
    const base = { first_name: 'W', role_id: roleId, branch_company: [] };
    expectError(await c.call('POST', '/api/user_account', lead.headers, { ...base, username: c.next('gl_w'), user_type_id: open, inventory_allow: [inv1] }), 403, 'FORBIDDEN');
    expectError(await c.call('POST', '/api/user_account', lead.headers, { ...base, username: c.next('gl_w'), user_type_id: limited, inventory_allow: [inv1, inv2] }), 403, 'FORBIDDEN');
    expect((await c.call('POST', '/api/user_account', lead.headers, { ...base, username: c.next('gl_w'), user_type_id: limited, inventory_allow: [inv1] })).statusCode).toBe(201);
    expectError(await c.call('POST', '/api/user_type', lead.headers, { name: 'Everywhere', role_id: roleId, is_limit_inventory_to_access: false }), 403, 'FORBIDDEN');
    expectError(await c.call('PATCH', `/api/user_type/${limited}`, lead.headers, { is_limit_inventory_to_access: false }), 403, 'FORBIDDEN');
  });

  it('the last active administrator cannot be deactivated, demoted or deleted; with a second one it can', async () => {
    const second = await c.user(c.next('gl_admin'), { role_id: adminRole });
    const lesser = await c.role(c.next('gl_lesser'), { product: { view: true } });
    const secondHeaders = await c.signIn((await account(second)).username);
    // two administrators: one may deactivate the other
    const off = await c.call('PATCH', `/api/user_account/${second}`, c.admin, { is_active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect((await c.signInRaw((await account(second)).username, PASSWORD)).statusCode).toBe(401);
    expect((await c.call('PATCH', `/api/user_account/${second}`, c.admin, { is_active: true })).statusCode).toBe(200);
    // the second deactivates the first, and is then the last one
    const again = await c.signIn((await account(second)).username);
    expect(secondHeaders).not.toEqual(again);
    expect((await c.call('PATCH', `/api/user_account/${adminId}`, again, { is_active: false })).statusCode).toBe(200);
    // the last one cannot demote itself or change its own role, and nobody else holds enough to touch it
    expectError(await c.call('PATCH', `/api/user_account/${second}`, again, { role_id: lesser }), 403, 'FIELD_FORBIDDEN');
    expectError(await c.call('PUT', `/api/user_role/${adminRole}`, again, { name: 'Administrator', role_detail: { '*': { view: true } }, production_report_print_times: 1 }), 403, 'FORBIDDEN');
    // a principal still cached after its own account was switched off must not remove the last one either
    const ghost = { user: { id: 999_999, role_id: adminRole, inventory_allow: [], branch_company: [] }, role: { role_detail: { '*': ADMIN_FLAGS } }, userType: null } as never;
    const lastOne = (await c.call('GET', `/api/user_account/${second}`, again)).json().data;
    expect(lastOne.is_active).toBe(true);
    await expect(guardAccountWrite(t.db.kysely, authEntities(t.registry), ghost, [], 'user_account', lastOne, { ...lastOne, is_active: false })).rejects.toThrow(/last active administrator/);
    await expect(guardAccountWrite(t.db.kysely, authEntities(t.registry), ghost, [], 'user_account', lastOne, null)).rejects.toThrow(/last active administrator/);
    await expect(guardAccountWrite(t.db.kysely, authEntities(t.registry), ghost, [], 'user_role', { id: adminRole, role_detail: { '*': ADMIN_FLAGS } }, { id: adminRole, role_detail: {} })).rejects.toThrow(/last active administrator/);
    // restore the first administrator for the other tests
    expect((await c.call('PATCH', `/api/user_account/${adminId}`, again, { is_active: true })).statusCode).toBe(200);
    // the deactivation ended the first administrator's session: sign in again
    const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    t.headers.authorization = `Bearer ${signin.json().data.id_token}`;
    expect((await account(adminId)).is_active).toBe(true);
  });
});
