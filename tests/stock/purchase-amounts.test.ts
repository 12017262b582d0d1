/**
 * A purchase order computes its amounts with the document arithmetic the
 * sales documents use: line discounts, a document discount, VAT excluded or
 * included, exact to the satang; a total cannot be written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';

describe.each(testDialects())('purchase order amounts on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let supplier: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    supplier = await c.supplier();
  });
  afterAll(async () => t?.close());

  it('computes line amounts, the discount, VAT and the totals on create and on edit', async () => {
    const [p1, p2] = [await c.product(), await c.product()];
    const po = await c.ok(c.call('POST', '/api/purchase_order', c.admin, {
      supplier_id: supplier, your_company_id: company, vat_type: 'exclude', discount_amount: 100,
      items: [{ product_id: p1, qty: 3, price: '199.99', discount_percent: 10 }, { product_id: p2, qty: 2, price: 250 }],
    }), 201);
    // 3 × 199.99 = 599.97 − 10 % (60.00) = 539.97; + 500 = 1,039.97; − 100 = 939.97; VAT 7 % = 65.80 (65.7979 half-up)
    expect(po.items.map((l: { amount: number }) => l.amount)).toEqual([539.97, 500]);
    expect(po).toMatchObject({ subtotal: 1039.97, amount_before_vat: 939.97, vat_amount: 65.8, total_amount: 1005.77, net_amount: 1005.77 });
    const edited = await c.ok(c.call('PATCH', `/api/purchase_order/${po.id}`, c.admin, { vat_type: 'include' }));
    // VAT inside 939.97: 939.97 × 7 / 107 = 61.49 (61.4934)
    expect(edited).toMatchObject({ amount_before_vat: 878.48, vat_amount: 61.49, total_amount: 939.97 });
    // a total is computed, never written
    const forced = await c.call('PATCH', `/api/purchase_order/${po.id}`, c.admin, { total_amount: 1 });
    expect(forced.statusCode).toBe(400);
    expect(forced.json().error.code).toBe('READ_ONLY_FIELD');
  });
});
