/**
 * JWT handling: only HS256 tokens signed with the server's secret, unexpired,
 * not revoked, and issued at the account's current token version are accepted.
 * Everything else answers 401 UNAUTHORIZED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { createTestApp, TEST_SECRET, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { bearer, Client, expectError, PASSWORD, type Headers } from '../support/security-fixtures.ts';

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

function tokenOf(h: Headers): string {
  return h.authorization!.slice('Bearer '.length);
}

describe.each(testDialects())('tokens on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let adminId: number;
  let user: { id: number; headers: Headers; username: string; roleId: number };
  /** Who a token speaks for, or the error code. */
  const whoami = async (h: Headers) => {
    const res = await c.call('GET', '/api/user_account', h);
    return res;
  };
  const expectUnauthorized = async (h: Headers) => {
    const res = await whoami(h);
    expectError(res, 401, 'UNAUTHORIZED');
    return res;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    adminId = (await c.call('GET', '/api/user_account?filter=' + encodeURIComponent('{"username":{"_eq":"admin"}}'), c.admin)).json().data[0].id;
    user = await c.staff('tok', { product: { view: true } });
  });
  afterAll(async () => t?.close());

  it('a genuine token works and reaches only the caller\'s own account', async () => {
    const res = await whoami(user.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((r: { id: number }) => r.id)).toEqual([user.id]);
  });

  describe('tampered tokens', () => {
    it('alg "none" (unsigned) is refused', async () => {
      const claims = decodeJwt(tokenOf(user.headers));
      for (const alg of ['none', 'None', 'NONE']) {
        await expectUnauthorized(bearer(`${b64({ alg, typ: 'JWT' })}.${b64({ ...claims, sub: String(adminId) })}.`));
        await expectUnauthorized(bearer(`${b64({ alg, typ: 'JWT' })}.${b64(claims)}.`));
      }
    });

    it('HS512 signed with the very same secret is refused (only HS256 is accepted)', async () => {
      const claims = decodeJwt(tokenOf(user.headers));
      const token = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS512', typ: 'JWT' }).sign(TEST_SECRET);
      const res = await expectUnauthorized(bearer(token));
      expect(res.json().error.message).toMatch(/not valid/);
    });

    it('an RS256 header over an HMAC signature (key confusion) is refused', async () => {
      const [, payload, sig] = tokenOf(user.headers).split('.');
      await expectUnauthorized(bearer(`${b64({ alg: 'RS256', typ: 'JWT' })}.${payload}.${sig}`));
      await expectUnauthorized(bearer(`${b64({ alg: 'RS256', typ: 'JWT', jwk: { kty: 'oct', k: 'AAAA' } })}.${payload}.${sig}`));
    });

    it('a bad signature is refused', async () => {
      const [h, p, sig] = tokenOf(user.headers).split('.');
      const flipped = (sig![0] === 'A' ? 'B' : 'A') + sig!.slice(1);
      await expectUnauthorized(bearer(`${h}.${p}.${flipped}`));
      await expectUnauthorized(bearer(`${h}.${p}.`));
      const forged = await new SignJWT({ ...decodeJwt(tokenOf(user.headers)) }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('another-secret-another-secret-0123456789'));
      await expectUnauthorized(bearer(forged));
    });

    it('a modified payload (sub changed to the admin) is refused', async () => {
      const [h, , sig] = tokenOf(user.headers).split('.');
      const claims = decodeJwt(tokenOf(user.headers));
      await expectUnauthorized(bearer(`${h}.${b64({ ...claims, sub: String(adminId) })}.${sig}`));
      await expectUnauthorized(bearer(`${h}.${b64({ ...claims, exp: (claims.exp ?? 0) + 86400 })}.${sig}`));
    });

    it('an expired token is refused with an expiry message', async () => {
      const claims = decodeJwt(tokenOf(user.headers));
      const past = Math.floor(Date.now() / 1000) - 60;
      const token = await new SignJWT({ ver: claims.ver }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(user.id)).setJti('expired-jti').setIssuedAt(past - 3600).setExpirationTime(past).sign(TEST_SECRET);
      const res = await expectUnauthorized(bearer(token));
      expect(res.json().error.message).toMatch(/expired/);
    });

    it('a correctly signed token with missing claims is refused', async () => {
      const noVer = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(String(user.id)).setJti('x').setExpirationTime('1h').sign(TEST_SECRET);
      await expectUnauthorized(bearer(noVer));
      const noExp = await new SignJWT({ ver: 1 }).setProtectedHeader({ alg: 'HS256' }).setSubject(String(user.id)).setJti('y').sign(TEST_SECRET);
      await expectUnauthorized(bearer(noExp));
      const badSub = await new SignJWT({ ver: 1 }).setProtectedHeader({ alg: 'HS256' }).setSubject('admin').setJti('z').setExpirationTime('1h').sign(TEST_SECRET);
      await expectUnauthorized(bearer(badSub));
    });

    it('garbage, empty and non-Bearer authorization headers are refused', async () => {
      for (const authorization of ['Bearer', 'Bearer ', 'Bearer a.b.c', 'Basic YWRtaW46YWRtaW4=', tokenOf(user.headers), `Bearer ${tokenOf(user.headers)} extra`]) {
        expectError(await c.call('GET', '/api/product', { authorization }), 401, 'UNAUTHORIZED');
      }
    });
  });

  describe('tokens that stopped counting', () => {
    it('a signed-out token is refused, other sessions of the same user go on', async () => {
      const a = await c.signIn(user.username);
      const b = await c.signIn(user.username);
      const out = await c.call('POST', '/api/auth/signout', a);
      expect(out.statusCode, out.body).toBe(200);
      expect(out.json()).toEqual({ success: true, data: { signed_out: true } });
      await expectUnauthorized(a);
      expectError(await c.call('POST', '/api/auth/signout', a), 401, 'UNAUTHORIZED');
      expect((await whoami(b)).statusCode).toBe(200);
    });

    it('the user\'s own password change ends the old token and answers a working new one', async () => {
      const u = await c.staff('pw', { product: { view: true } });
      const other = await c.signIn(u.username);
      const res = await c.call('POST', '/api/auth/password', u.headers, { current_password: PASSWORD, new_password: 'a-brand-new-password' });
      expect(res.statusCode, res.body).toBe(200);
      await expectUnauthorized(u.headers);
      await expectUnauthorized(other);
      expect((await whoami(bearer(res.json().data.id_token))).statusCode).toBe(200);
      expectError(await c.signInRaw(u.username, PASSWORD), 401, 'UNAUTHORIZED');
      await c.signIn(u.username, 'a-brand-new-password');
    });

    it('a wrong current password changes nothing', async () => {
      const u = await c.staff('pw2', { product: { view: true } });
      expectError(await c.call('POST', '/api/auth/password', u.headers, { current_password: 'not-my-password', new_password: 'a-brand-new-password' }), 400, 'VALIDATION_FAILED');
      expect((await whoami(u.headers)).statusCode).toBe(200);
      await c.signIn(u.username);
    });

    it('an admin setting the password ends the user\'s sessions', async () => {
      const u = await c.staff('pw3', { product: { view: true } });
      const res = await c.call('PUT', `/api/user_account/${u.id}/password`, c.admin, { password: 'set-by-the-admin' });
      expect(res.statusCode, res.body).toBe(200);
      await expectUnauthorized(u.headers);
    });

    it('a role change by the admin ends the user\'s sessions', async () => {
      const u = await c.staff('rolechg', { product: { view: true } });
      const newRole = await c.role(c.next('other role '), { product: { view: true } });
      const res = await c.call('PATCH', `/api/user_account/${u.id}`, c.admin, { role_id: newRole });
      expect(res.statusCode, res.body).toBe(200);
      await expectUnauthorized(u.headers);
      // a fresh sign-in gets the new role
      const h = await c.signIn(u.username);
      expect((await c.call('POST', '/api/role/id', h, { role_id: newRole })).json().role_data[0].id).toBe(newRole);
    });

    it('a user type change by the admin ends the user\'s sessions', async () => {
      const u = await c.staff('typechg', { product: { view: true } });
      const typeId = await c.userType(c.next('moved type '), u.roleId);
      expect((await c.call('PATCH', `/api/user_account/${u.id}`, c.admin, { user_type_id: typeId })).statusCode).toBe(200);
      await expectUnauthorized(u.headers);
    });

    it('deactivation ends the user\'s sessions and blocks sign-in', async () => {
      const u = await c.staff('deact', { product: { view: true } });
      const res = await c.call('PATCH', `/api/user_account/${u.id}`, c.admin, { is_active: false });
      expect(res.statusCode, res.body).toBe(200);
      await expectUnauthorized(u.headers);
      expectError(await c.signInRaw(u.username, PASSWORD), 401, 'UNAUTHORIZED');
      // reactivating does not revive the old token
      expect((await c.call('PATCH', `/api/user_account/${u.id}`, c.admin, { is_active: true })).statusCode).toBe(200);
      await expectUnauthorized(u.headers);
    });

    it('deleting the account ends its sessions', async () => {
      const u = await c.staff('gone', { product: { view: true } });
      expect((await c.call('DELETE', `/api/user_account/${u.id}`, c.admin)).statusCode).toBe(200);
      await expectUnauthorized(u.headers);
      expectError(await c.signInRaw(u.username, PASSWORD), 401, 'UNAUTHORIZED');
    });

    it('a role\'s rights change applies to live sessions at once (no stale cache)', async () => {
      const u = await c.staff('live', { product: { view: true } });
      expect((await c.call('GET', '/api/product', u.headers)).statusCode).toBe(200);
      const res = await c.call('PATCH', `/api/user_role/${u.roleId}`, c.admin, { role_detail: { product: { view: false } } });
      expect(res.statusCode, res.body).toBe(200);
      expectError(await c.call('GET', '/api/product', u.headers), 403, 'FORBIDDEN');
    });
  });

  it('no response carried a password hash', () => c.assertNoHashLeaked());
});
