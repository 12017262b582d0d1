/**
 * A user whose user type limits them to one inventory cannot receive into,
 * deliver from, transfer into or see the balance of another inventory, on any
 * path: create, post, lists, reads, the ledger and the balance API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError, idsOf, type Headers } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';

const ALL = { view: true, edit: true };

describe.each(testDialects())('stock row scope on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let customer: number;
  let mine: number;
  let theirs: number;
  let product: number;
  let clerk: Headers;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    // these tests deliver without a sales order too (do_create_type defaults to create_with_so)
    await c.settings({ do_create_type: 'create_without_so' });
    company = await c.company();
    customer = await c.customer();
    mine = await c.inventory(company);
    theirs = await c.inventory(company);
    product = await c.product();
    await c.receive(mine, [{ product_id: product, qty: 10, price: 5 }]);
    await c.receive(theirs, [{ product_id: product, qty: 20, price: 5 }]);
    const roleDetail = Object.fromEntries(['goods_receipt', 'delivery_order', 'internal_product_transfer', 'stock_movement', 'stock_balance', 'product', 'inventory', 'customer', 'your_company'].map((k) => [k, ALL]));
    clerk = (await c.staff('wh', roleDetail, { inventory: [mine] })).headers;
  });
  afterAll(async () => t?.close());

  it('receives and delivers only in its own inventory', async () => {
    await c.posted('goods_receipt', { inventory_id: mine }, [{ product_id: product, qty: 1 }], clerk);
    expectError(await c.call('POST', '/api/goods_receipt', clerk, { inventory_id: theirs, items: [{ product_id: product, qty: 1 }] }), 403, 'FORBIDDEN');
    expectError(await c.call('POST', '/api/delivery_order', clerk, { inventory_id: theirs, customer_id: customer, your_company_id: company, items: [{ product_id: product, qty: 1 }] }), 403, 'FORBIDDEN');
    // drafts the administrator made for the other inventory cannot be posted (nor seen)
    const gr = await c.draft('goods_receipt', { inventory_id: theirs }, [{ product_id: product, qty: 1 }]);
    const dO = await c.draft('delivery_order', { inventory_id: theirs, customer_id: customer, your_company_id: company }, [{ product_id: product, qty: 1 }]);
    expectError(await c.action('goods_receipt', gr.id, 'approve', clerk), 404, 'NOT_FOUND');
    expectError(await c.action('delivery_order', dO.id, 'approve', clerk), 404, 'NOT_FOUND');
    // nor can a draft of its own be moved there
    const own = await c.draft('delivery_order', { inventory_id: mine, customer_id: customer, your_company_id: company }, [{ product_id: product, qty: 1 }], clerk);
    expectError(await c.call('PATCH', `/api/delivery_order/${own.id}`, clerk, { inventory_id: theirs }), 403, 'FORBIDDEN');
    expect(await c.onHand(product, theirs)).toBe(20);
  });

  it('cannot transfer into, or out of, another inventory', async () => {
    // an inventory it cannot see cannot even be named (the link rule), so the destination is refused as invalid
    const into = await c.call('POST', '/api/internal_product_transfer', clerk, { from_inventory_id: mine, to_inventory_id: theirs, items: [{ product_id: product, qty: 1 }] });
    expectError(into, 400, 'VALIDATION_FAILED');
    expect(into.json().error.details.fields.map((f: { field: string }) => f.field)).toEqual(['to_inventory_id']);
    expectError(await c.call('POST', '/api/internal_product_transfer', clerk, { from_inventory_id: theirs, to_inventory_id: mine, items: [{ product_id: product, qty: 1 }] }), 403, 'FORBIDDEN');
    const adminDraft = await c.draft('internal_product_transfer', { from_inventory_id: mine, to_inventory_id: theirs }, [{ product_id: product, qty: 1 }]);
    expectError(await c.action('internal_product_transfer', adminDraft.id, 'approve', clerk), 403, 'FORBIDDEN');
    expect(await c.onHand(product, mine)).toBe(11);
  });

  it('sees only its own inventory in lists, the ledger and the balance', async () => {
    const grs = await c.ok(c.call('GET', '/api/goods_receipt?limit=500', clerk)) as unknown as { inventory_id: number }[];
    expect(grs.length).toBeGreaterThan(0);
    expect(new Set(grs.map((g) => g.inventory_id))).toEqual(new Set([mine]));
    const moves = await c.ok(c.call('GET', '/api/stock_movement?limit=500', clerk)) as unknown as { inventory_id: number }[];
    expect(new Set(moves.map((m) => m.inventory_id))).toEqual(new Set([mine]));
    const theirMove = idsOf(await c.call('GET', `/api/stock_movement?limit=500&filter=${encodeURIComponent(JSON.stringify({ inventory_id: { _eq: theirs } }))}`, c.admin))[0]!;
    expectError(await c.call('GET', `/api/stock_movement/${theirMove}`, clerk), 404, 'NOT_FOUND');
    const rows = await c.ok(c.balance({ product_id: product }, clerk)) as unknown as { inventory_id: number; qty_on_hand: number }[];
    expect(rows.map((r) => [r.inventory_id, r.qty_on_hand])).toEqual([[mine, 11]]);
    expect(await c.ok(c.balance({ inventory_id: theirs }, clerk))).toEqual([]);
    expect(await c.ok(c.balance({ product_id: product, group_by: 'product', as_of: '2099-01-01' }, clerk))).toEqual([{ product_id: product, inventory_id: null, qty_on_hand: 11, qty_booked: 0, qty_available: 11 }]);
    expect((await c.ok(c.balance({ product_id: product, group_by: 'product' }))).map((r: any) => r.qty_on_hand)).toEqual([31]);
  });

  it('the balance needs view on stock_balance, and refuses unknown parameters', async () => {
    const other = (await c.staff('nobal', { product: ALL })).headers;
    expectError(await c.balance({}, other), 403, 'FORBIDDEN');
    expectError(await c.balance({ warehouse: 1 }), 400, 'INVALID_QUERY');
    expectError(await c.balance({ as_of: '2026-13-45' }), 400, 'INVALID_QUERY');
    expectError(await c.balance({ group_by: 'colour' }), 400, 'INVALID_QUERY');
  });
});
