import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';

describe.each(testDialects())('bulk create is all-or-nothing (%s)', (dialect) => {
  let t: TestApp;
  let inv1: number;
  let inv2: number;
  let product: number;
  let limited: Record<string, string>;

  const post = (url: string, payload: unknown, headers = t.headers) => t.app.inject({ method: 'POST', url, headers, payload: payload as object });
  const count = async (headers = t.headers) => (await t.app.inject({ method: 'GET', url: '/api/stock_movement?meta=total_count', headers })).json().meta.total_count;
  const movement = (inventory: number, qty = 5) => ({ movement_date: '2026-11-01T08:00:00.000Z', product_id: product, inventory_id: inventory, direction: 'in', qty });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    inv1 = (await post('/api/inventory', { code: 'W1', name: 'Warehouse 1', inventory_type: 'warehouse' })).json().data.id;
    inv2 = (await post('/api/inventory', { code: 'W2', name: 'Warehouse 2', inventory_type: 'warehouse' })).json().data.id;
    product = (await post('/api/product', { code: 'P1', name_th: 'สินค้า', product_class: 'product', unit: 'kg', vat_type: 'vat7' })).json().data.id;
    const role = (await post('/api/user_role', { name: 'Stock', role_detail: { stock_movement: { view: true, edit: true }, product: { view: true }, inventory: { view: true } } })).json().data.id;
    await post('/api/user_type', { name: 'Limited', role_id: role, is_limit_inventory_to_access: true });
    const user = (await post('/api/user_account', { username: 'stocker', role_id: role, inventory_allow: [inv1] })).json().data.id;
    expect((await t.app.inject({ method: 'PUT', url: `/api/user_account/${user}/password`, headers: t.headers, payload: { password: 'stocker-password' } })).statusCode).toBe(200);
    const signin = await post('/api/auth/signin', { username: 'stocker', password: 'stocker-password' }, {});
    limited = { authorization: `Bearer ${signin.json().data.id_token}` };
  });
  afterAll(async () => t?.close());

  it('creates every item in one request', async () => {
    const res = await post('/api/stock_movement/bulk', { items: [movement(inv1), movement(inv2, 7.25)] });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.map((r: { qty: number }) => r.qty)).toEqual([5, 7.25]);
    expect(await count()).toBe(2);
  });

  it('refuses the whole request when one item is invalid, and stores nothing', async () => {
    const res = await post('/api/stock_movement/bulk', { items: [movement(inv1), { ...movement(inv1), qty: 'lots' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
    expect(res.json().error.message).toMatch(/item 1/);
    expect(await count()).toBe(2);
  });

  it('refuses the whole request when one item is outside the user\'s inventories', async () => {
    const res = await post('/api/stock_movement/bulk', { items: [movement(inv1), movement(inv2)] }, limited);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    expect(await count()).toBe(2);
    const ok = await post('/api/stock_movement/bulk', { items: [movement(inv1), movement(inv1)] }, limited);
    expect(ok.statusCode).toBe(201);
    // the limited user sees only inventory 1's rows: the first bulk's inv1 row and these two
    expect(await count(limited)).toBe(3);
    expect(await count()).toBe(4);
  });

  it('rejects an empty or oversized item list', async () => {
    expect((await post('/api/stock_movement/bulk', { items: [] })).statusCode).toBe(400);
    expect((await post('/api/stock_movement/bulk', { items: Array.from({ length: 501 }, () => movement(inv1)) })).statusCode).toBe(400);
  });
});
