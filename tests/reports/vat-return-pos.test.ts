/**
 * Issue 50 §4: the ภ.พ.30 worksheet's zero-rated and exempt sales at the counter. A POS line keeps its product's
 * vat_type from the time of the sale; lines of zero-rated and exempt products carry no VAT, and a partial return takes
 * back its share. The month's output VAT and sales stay sales_tax_report's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { posShop } from '../support/pos-fixtures.ts';
import { businessToday } from '../../engine/documents/business-time.ts';

type Row = Record<string, any>;
const cents = (n: unknown) => Math.round(Number(n) * 100);

describe.each(testDialects())('POS sales in the VAT return worksheet on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company = 0;
  const today = businessToday(new Date());

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    const shop = await posShop(c);
    company = shop.company;
    const std = await c.product({ price: 107 });
    const zero = await c.product({ price: 50, vat_type: 'zero' });
    const exempt = await c.product({ price: 30, vat_type: 'exempt' });
    await c.receive(shop.inv, [{ product_id: std, qty: 10, price: 50 }, { product_id: zero, qty: 10, price: 20 }, { product_id: exempt, qty: 10, price: 10 }]);
    const shift = (await c.ok(c.call('POST', '/api/pos_shift', c.admin, { pos_id: shop.pos, opening_cash: 0 }), 201)).id as number;
    const sale = (await c.ok(c.call('POST', '/api/pos_order', c.admin,
      { pos_shift_id: shift, items: [{ product_id: std, qty: 1 }, { product_id: zero, qty: 4 }, { product_id: exempt, qty: 3 }], payments: [{ payment_method_id: shop.cash, amount: 107 + 200 + 90 }] },
      { headers: { ...c.admin, 'idempotency-key': `vat-return-pos-${dialect}-sale-1` } }), 201)) as Row;
    // one of the four zero-rated units comes back: 150.00 of zero-rated sales stay
    const zeroLine = (sale.items as Row[]).find((l) => l.product_id === zero)!;
    const back = await c.call('POST', `/api/pos_order/${sale.id}/return`, c.admin, { items: [{ line_id: zeroLine.id, qty: 1 }], refund_reason: 'ชำรุด' });
    expect(back.statusCode, back.body).toBe(200);
  });
  afterAll(async () => { await t?.close(); });

  it('zero-rated and exempt lines by the product\'s VAT type, net of returns; output VAT as sales_tax_report', async () => {
    const q = `month=${today.slice(0, 7)}&company=${company}&limit=100`;
    const vat = (await c.ok(c.call('GET', `/api/report/vat_return?${q}`, c.admin))) as unknown as { rows: Row[]; totals: Row };
    const sales = (await c.ok(c.call('GET', `/api/report/sales_tax_report?${q}`, c.admin))) as unknown as { totals: Row };
    const row = vat.rows[0]!;
    expect([cents(row.zero_rated_sales), cents(row.exempt_sales)]).toEqual([15000, 9000]);
    expect(cents(row.output_vat)).toBe(cents(sales.totals.vat_amount));
    expect(cents(row.output_vat)).toBe(700);
    expect(cents(row.sales_amount)).toBe(cents(sales.totals.amount_before_vat));
    // what is left is the standard-rated sale before VAT
    expect(cents(row.taxable_sales)).toBe(10000);
  });
});
