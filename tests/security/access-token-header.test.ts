/**
 * The spec's blob downloads send the token in `x-access-token` as well as in
 * `Authorization: Bearer`. The server takes either one with the same checks,
 * the same revocation and the same audit, and refuses a request whose two
 * headers carry different tokens.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, today, type Headers } from '../support/security-fixtures.ts';

const tokenOf = (h: Headers) => h.authorization!.slice('Bearer '.length);
const access = (token: string): Headers => ({ 'x-access-token': token });

describe.each(testDialects())('x-access-token on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let user: { id: number; headers: Headers; username: string };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    user = await c.staff('xat', { product: { view: true, export: true } });
  });
  afterAll(async () => t?.close());

  it('alone, it signs the request in as its own account', async () => {
    const res = await c.call('GET', '/api/user_account', access(tokenOf(user.headers)));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((r: { id: number }) => r.id)).toEqual([user.id]);
  });

  it('it downloads a blob by GET and by POST with a JSON body', async () => {
    const get = await c.call('GET', '/api/product/export?format=csv', access(tokenOf(user.headers)));
    expect(get.statusCode, get.body).toBe(200);
    expect(get.headers['content-type']).toMatch(/csv/);
    const code = c.next('XAT-');
    const ids = [await c.make('product', { code, name_th: `สินค้า ${code}`, unit: 'ชิ้น' })];
    // a selection of ids as a JSON body, filter given as an object: only that row comes back
    const post = await c.call('POST', '/api/product/export', access(tokenOf(user.headers)), { format: 'csv', fields: ['id', 'code'], filter: { id: { _in: ids } } });
    expect(post.statusCode, post.body).toBe(200);
    expect(post.body.trim().split('\r\n').slice(1)).toEqual([`${ids[0]},${code}`]);
    expectError(await c.call('POST', '/api/product/export', access(tokenOf(user.headers)), { filter: { nope: { _eq: 1 } } }), 400, 'UNKNOWN_FIELD');
  });

  it('the same token in both headers is accepted', async () => {
    const res = await c.call('GET', '/api/product', { ...user.headers, ...access(tokenOf(user.headers)) });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('two different tokens are refused with a code and Thai text, before either is used', async () => {
    const other = await c.signIn(user.username);
    const res = await c.call('GET', '/api/product', { ...user.headers, ...access(tokenOf(other)), 'accept-language': 'th' });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.json().error.params).toMatchObject({ reason: 'token_mismatch' });
    expect(res.json().error.message).toMatch(/[\u0E00-\u0E7F]/);
  });

  it('a forged token in x-access-token is refused and audited like a forged bearer', async () => {
    expectError(await c.call('GET', '/api/customer?xat_probe=1', access('forged.token.here')), 401, 'UNAUTHORIZED');
    const row = await vi.waitFor(async () => {
      const rows = (await c.call('GET', `/api/system_log?date=${today()}&limit=500`, c.admin)).json().data as { action: string; message: string; user_id: number | null }[];
      const hit = rows.find((r) => r.action === 'access_denied' && r.message === 'GET /api/customer?xat_probe=1 answered 401');
      expect(hit).toBeDefined();
      return hit!;
    }, { timeout: 10_000, interval: 50 });
    expect(row.user_id).toBeNull();
  });

  it('a signed-out token is refused in x-access-token as in Authorization', async () => {
    const h = await c.signIn(user.username);
    expect((await c.call('POST', '/api/auth/signout', h)).statusCode).toBe(200);
    expectError(await c.call('GET', '/api/product', access(tokenOf(h))), 401, 'UNAUTHORIZED');
    expectError(await c.call('GET', '/api/product', h), 401, 'UNAUTHORIZED');
  });
});
