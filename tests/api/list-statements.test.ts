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

  it('a page keeps its sort order, ties broken by id and empty values placed as the database sorts them', async () => {
    // a kept statement is written with the page's limit and offset (list-statement-cache.ts); on SQLite the rows come as JSON
    const made: number[] = [];
    for (const [price, brand, cost] of [[50, 'B', null], [20, 'A', 5], [50, null, 5], [20, 'A', null], [50, 'A', 7], [10, null, null]] as const) {
      made.push(await c.product({ name_th: 'เรียงลำดับ', price, brand, cost }));
    }
    const rows = (await c.call('GET', `/api/product?filter=${q({ id: { _in: made } })}&fields=id,price,brand,cost`, c.admin)).json().data as { id: number; price: number; brand: string | null; cost: number | null }[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    // what each sort must give, worked out here. Each dialect places empty values as it sorts them by
    // default (an index then still serves the sort): SQLite below every value, PostgreSQL above
    const emptyLow = dialect === 'sqlite' ? -1 : 1;
    const cmp = (a: unknown, b: unknown, desc: boolean) => {
      if (a === b) return 0;
      const up = a === null ? emptyLow : b === null ? -emptyLow : (a as number | string) < (b as number | string) ? -1 : 1;
      return desc ? -up : up;
    };
    for (const sort of ['price', '-price,brand', 'brand,-cost', '-brand,cost,-price', '-cost']) {
      const keys = sort.split(',').map((k) => ({ name: k.replace('-', '') as 'price' | 'brand' | 'cost', desc: k.startsWith('-') }));
      const lastDesc = keys[keys.length - 1]!.desc;
      const expected = [...made].sort((x, y) => {
        for (const k of keys) {
          const d = cmp(byId.get(x)![k.name], byId.get(y)![k.name], k.desc);
          if (d) return d;
        }
        return lastDesc ? y - x : x - y;
      });
      const res = await c.call('GET', `/api/product?sort=${sort}&filter=${q({ id: { _in: made } })}`, c.admin);
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json().data as { id: number }[]).map((r) => r.id), sort).toEqual(expected);
      // and the second page of two starts where the first stopped
      const second = await c.call('GET', `/api/product?sort=${sort}&limit=2&offset=2&filter=${q({ id: { _in: made } })}`, c.admin);
      expect((second.json().data as { id: number }[]).map((r) => r.id), `${sort}, second page`).toEqual(expected.slice(2, 4));
    }
    const none = await c.call('GET', `/api/product?sort=price&filter=${q({ id: { _in: [-1] } })}`, c.admin);
    expect(none.json().data).toEqual([]);
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
