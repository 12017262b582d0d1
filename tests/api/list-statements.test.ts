/**
 * Lists run a compiled statement kept by their shape (server/crud/list-statement-cache.ts), and a
 * get by id reads the row and each kind of its lines through statements kept per entity.
 * What a kept statement must never do, on both dialects: answer one page's rows for another,
 * one record's lines for another's, keep a caller to a row scope that has since changed, or
 * miss a column added at run time.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, idsOf, q } from '../support/security-fixtures.ts';

const ALL = { view: true, edit: true, export: true, print: true, email: true };

describe.each(testDialects())('kept list statements on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let invA: number, invB: number;
  let moveA: number, moveB: number;
  let staff: { id: number; headers: Record<string, string> };
  const products: number[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    const co = await c.company();
    invA = await c.inventory(co);
    invB = await c.inventory(co);
    for (let i = 0; i < 5; i++) products.push(await c.product());
    moveA = await c.stockMovement(products[0]!, invA);
    moveB = await c.stockMovement(products[0]!, invB);
    staff = await c.staff('scoped', { stock_movement: ALL, inventory: ALL, product: { view: true } }, { inventory: [invA] });
  });
  afterAll(async () => t?.close());

  it('pages of one list shape answer their own rows', async () => {
    const page = async (offset: number) => idsOf(await c.call('GET', `/api/product?sort=id&limit=2&offset=${offset}&filter=${q({ id: { _in: products } })}`, c.admin));
    expect(await page(0)).toEqual(products.slice(0, 2));
    expect(await page(2)).toEqual(products.slice(2, 4));
    expect(await page(4)).toEqual(products.slice(4));
    expect(await page(0)).toEqual(products.slice(0, 2));
    // the same shape with another filter value is its own statement
    expect(idsOf(await c.call('GET', `/api/product?sort=id&limit=2&offset=0&filter=${q({ id: { _in: products.slice(3) } })}`, c.admin))).toEqual(products.slice(3));
  });

  it('a changed row scope applies to the very next list of the same shape', async () => {
    const list = async () => idsOf(await c.call('GET', '/api/stock_movement?sort=id', staff.headers));
    expect(await list()).toEqual([moveA]);
    const moved = await c.call('PATCH', `/api/user_account/${staff.id}`, c.admin, { inventory_allow: [invB] });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await list()).toEqual([moveB]);
    expect(idsOf(await c.call('GET', '/api/stock_movement?sort=id', c.admin))).toEqual([moveA, moveB]);
  });

  it('a column added at run time is in the next list of the same shape', async () => {
    const list = async () => (await c.call('GET', `/api/product?sort=id&filter=${q({ id: { _eq: products[1] } })}`, c.admin)).json().data[0];
    expect(await list()).not.toHaveProperty('cf_shelf_note');
    const added = await c.call('POST', '/api/custom_field', c.admin, { entity: 'product', name: 'shelf_note', type: 'string', label: { th: 'หมายเหตุชั้นวาง', en: 'Shelf note' } });
    expect(added.statusCode, added.body).toBe(201);
    expect(await list()).toHaveProperty('cf_shelf_note', null);
  });

  it('a list binds neither its limit and offset nor the soft-delete flag, so SQLite never plans it again per run', async () => {
    // SQLite plans again, on every run, a statement whose plan looked at a bound value: a LIMIT, or a
    // value matched against the partial unique indexes' `where is_deleted = 0` (list-statement-cache.ts)
    const spy = vi.spyOn(t.db.kysely, 'executeQuery');
    try {
      for (const [limit, offset] of [[2, 1], [3, 0]] as const) {
        const res = await c.call('GET', `/api/product?sort=id&limit=${limit}&offset=${offset}&filter=${q({ id: { _in: products } })}`, c.admin);
        expect(idsOf(res)).toEqual(products.slice(offset, offset + limit));
        const run = spy.mock.calls.map(([compiled]) => compiled as { sql: string; parameters: readonly unknown[] }).find((x) => /from "product"/.test(x.sql))!;
        expect(run.sql).toMatch(new RegExp(`"t"\\."is_deleted" = 0 .*limit ${limit} offset ${offset}$`));
        expect(run.parameters).toEqual(products);
        spy.mockClear();
      }
    } finally {
      spy.mockRestore();
    }
  });

  it("each record's get answers its own lines", async () => {
    const company = async (lines: string[]) => {
      const res = await c.call('POST', '/api/company', c.admin, { type: 'customer', status: 'active', customer_name_th: `ลูกค้า ${lines[0]}`, address_list: lines.map((l) => ({ address_type: 'office', address_line: l })) });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as number;
    };
    const a = await company(['A1 ถนนสุขุมวิท', 'A2 ถนนพระราม 4']);
    const b = await company(['B1 ถนนเพชรบุรี']);
    const lines = async (id: number) => ((await c.call('GET', `/api/company/${id}`, c.admin)).json().data.address_list as { address_line: string }[]).map((l) => l.address_line);
    expect(await lines(a)).toEqual(['A1 ถนนสุขุมวิท', 'A2 ถนนพระราม 4']);
    expect(await lines(b)).toEqual(['B1 ถนนเพชรบุรี']);
    expect(await lines(a)).toEqual(['A1 ถนนสุขุมวิท', 'A2 ถนนพระราม 4']);
    // the same statement inside a write's transaction (the update's before and after)
    const patched = await c.call('PATCH', `/api/company/${b}`, c.admin, { address_list: [{ address_type: 'billing', address_line: 'B2 ถนนวิทยุ' }] });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((patched.json().data.address_list as { address_line: string }[]).map((l) => l.address_line)).toEqual(['B2 ถนนวิทยุ']);
    expect(await lines(a)).toEqual(['A1 ถนนสุขุมวิท', 'A2 ถนนพระราม 4']);
  });
});
