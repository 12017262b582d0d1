/**
 * An internal transfer made from a posted delivery order
 * (`POST /api/internal_product_transfer/from/delivery_order`): it carries the
 * delivery's products and quantities, moves them between its two inventories
 * in one transaction (both legs or neither), and never takes more than the
 * delivery had.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';

describe.each(testDialects())('transfers from delivery orders on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let customer: number;
  let wh: number[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    await c.settings({ do_create_type: 'create_without_so' });
    company = await c.company();
    customer = await c.customer();
    wh = [await c.inventory(company), await c.inventory(company)];
  });
  afterAll(async () => t?.close());

  it('carries the delivery\'s lines, moves both legs or neither, and refuses more than the delivery had', async () => {
    const p = await c.product();
    const q = await c.product();
    await c.receive(wh[0]!, [{ product_id: p, qty: 10, price: 4 }, { product_id: q, qty: 1, price: 4 }]);
    const d = await c.posted('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: wh[0] }, [{ product_id: p, qty: 3 }, { product_id: q, qty: 1 }]);
    expect(await c.onHand(p, wh[0]!)).toBe(7);
    const draftTransfer = async (lines?: { source_line_id: number; qty: number }[]) => {
      const tr = await c.ok(c.call('POST', '/api/internal_product_transfer/from/delivery_order', c.admin, { ids: [d.id], ...(lines ? { lines } : {}) }), 201);
      await c.ok(c.call('PATCH', `/api/internal_product_transfer/${tr.id}`, c.admin, { from_inventory_id: wh[0], to_inventory_id: wh[1] }));
      return tr;
    };
    // q is no longer on hand in wh[0]: the whole transfer is refused, p does not move either
    const both = await draftTransfer();
    expect(both.items.map((l: Record<string, unknown>) => [l.product_id, l.qty])).toEqual([[p, 3], [q, 1]]);
    expectError(await c.action('internal_product_transfer', both.id, 'approve'), 409, 'INSUFFICIENT_STOCK');
    expect([await c.onHand(p, wh[0]!), await c.onHand(p, wh[1]!)]).toEqual([7, 0]);
    await c.ok(c.call('DELETE', `/api/internal_product_transfer/${both.id}`, c.admin));
    const one = await draftTransfer([{ source_line_id: d.items[0].id, qty: 3 }]);
    await c.ok(c.action('internal_product_transfer', one.id, 'approve'));
    expect([await c.onHand(p, wh[0]!), await c.onHand(p, wh[1]!)]).toEqual([4, 3]);
    expectError(await c.call('POST', '/api/internal_product_transfer/from/delivery_order', c.admin, { ids: [d.id], lines: [{ source_line_id: d.items[0].id, qty: 1 }] }), 409, 'OVER_PROCESSED');
  });
});
