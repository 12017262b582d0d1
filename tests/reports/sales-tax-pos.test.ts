/**
 * Issue 44 §8 and §10: paid POS sales are in sales_tax_report of their month and company (a full tax invoice on its
 * own line; abbreviated ones as one line per terminal and day, "ใบกำกับภาษีอย่างย่อ เลขที่ … ถึง …"; a partial return
 * netted, a sale refunded whole left out), and sale_order_report keeps closed orders.
 * Prices include VAT 7 %: 107.00 is 100.00 + 7.00.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { posShop } from '../support/pos-fixtures.ts';
import { thaiTaxId } from '../support/security-fixtures.ts';
import { setSiteSettings } from '../support/site-settings.ts';
import { businessToday } from '../../engine/documents/business-time.ts';

type Row = Record<string, any>;

describe.each(testDialects())('POS sales in the sales tax report on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let other: number;
  const today = businessToday(new Date());
  const sales: Row[] = [];
  let n = 0;
  let x = 0;
  let inv = 0;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    const shop = await posShop(c);
    company = shop.company;
    const t2 = await c.make('pos', { code: 'POS2', name: 'เครื่อง 2', your_company_id: company, inventory_id: shop.inv, sales_channel_id: shop.channel });
    other = await c.company();
    const otherInv = await c.inventory(other);
    const t3 = await c.make('pos', { code: 'POS3', name: 'เครื่อง 3', your_company_id: other, inventory_id: otherInv, sales_channel_id: shop.channel });
    x = await c.product({ price: 107 });
    inv = shop.inv;
    await c.receive(shop.inv, [{ product_id: x, qty: 50, price: 50 }]);
    await c.receive(otherInv, [{ product_id: x, qty: 10, price: 50 }]);
    await setSiteSettings(t.app, c.admin, { tax_invoice: 'abbreviated' });
    const open = async (pos: number) => (await c.ok(c.call('POST', '/api/pos_shift', c.admin, { pos_id: pos, opening_cash: 0 }), 201)).id as number;
    const sell = async (shift: number, qty: number, extra: Row = {}) => (await c.ok(c.call('POST', '/api/pos_order', c.admin,
      { pos_shift_id: shift, items: [{ product_id: x, qty }], payments: [{ payment_method_id: shop.cash, amount: 107 * qty }], ...extra },
      { headers: { ...c.admin, 'idempotency-key': `sales-tax-${dialect}-${++n}-key` } }), 201)) as Row;
    const [s1, s2, s3] = [await open(shop.pos), await open(t2), await open(t3)];
    sales.push(await sell(s1, 1)); // 0: abbreviated 107.00
    sales.push(await sell(s1, 2)); // 1: abbreviated 214.00, then one unit returned: 107.00 left
    sales.push(await sell(s1, 3)); // 2: abbreviated, refunded whole: out
    sales.push(await sell(s1, 5, { invoice_type: 'full', buyer_name: 'บริษัท ผู้ซื้อ จำกัด', buyer_tax_id: thaiTaxId(105558001), buyer_branch_code: '00000' })); // 3: full 535.00
    sales.push(await sell(s2, 4)); // 4: abbreviated on the second terminal 428.00
    sales.push(await sell(s3, 10)); // 5: another company's
    const line = sales[1]!.items[0].id;
    expect((await c.call('POST', `/api/pos_order/${sales[1]!.id}/return`, c.admin, { items: [{ line_id: line, qty: 1 }], refund_reason: 'ชำรุด' })).statusCode).toBe(200);
    await c.ok(c.call('POST', `/api/pos_order/${sales[2]!.id}/actions/refund`, c.admin, { refund_reason: 'สแกนผิด' }));
  });
  afterAll(async () => {
    await setSiteSettings(t.app, c.admin, { tax_invoice: 'full' }).catch(() => undefined);
    await t?.close();
  });

  const report = async (name: string, query: string) => (await c.ok(c.call('GET', `/api/report/${name}?${query}&limit=1000`, c.admin))) as { rows: Row[]; totals: Row };

  it('a full tax invoice is its own line; abbreviated ones one line per terminal and day, numbered from … to … (one number when one slip), returns netted', async () => {
    const got = await report('sales_tax_report', `month=${today.slice(0, 7)}&company=${company}`);
    const pos = got.rows.filter((r) => r.doc_type === 'pos_order');
    const money = (r: Row) => [Number(r.amount_before_vat), Number(r.vat_amount), Number(r.total_amount)];
    const full = pos.find((r) => r.doc_no === sales[3]!.tax_invoice_no)!;
    expect(full).toMatchObject({ doc_date: today, customer_name: 'บริษัท ผู้ซื้อ จำกัด', tax_id: thaiTaxId(105558001) });
    expect(money(full)).toEqual([500, 35, 535]);
    // terminal 1: 107.00 + (214.00 − 107.00 returned) = 214.00, VAT 14.00; the sale refunded whole is not counted
    const one = pos.find((r) => r.doc_no === `ใบกำกับภาษีอย่างย่อ เลขที่ ${sales[0]!.tax_invoice_no} ถึง ${sales[1]!.tax_invoice_no}`);
    expect(one, JSON.stringify(pos)).toBeDefined();
    expect(money(one!)).toEqual([200, 14, 214]);
    // one slip that day on terminal 2: its number alone, not "from X to X"
    const two = pos.find((r) => r.doc_no === `ใบกำกับภาษีอย่างย่อ เลขที่ ${sales[4]!.tax_invoice_no}`)!;
    expect(money(two)).toEqual([400, 28, 428]);
    expect(pos).toHaveLength(3);
    // the month's POS VAT is in the total: 35 + 14 + 28
    expect(pos.reduce((s, r) => s + Number(r.vat_amount), 0)).toBeCloseTo(77, 2);
    expect(Number(got.totals.vat_amount)).toBeCloseTo(77, 2);
    const theirs = await report('sales_tax_report', `month=${today.slice(0, 7)}&company=${other}`);
    expect(theirs.rows.map((r) => Number(r.vat_amount))).toEqual([70]);
  });

  it('sale_order_report keeps closed orders', async () => {
    const customer = await c.customer();
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { doc_date: today, your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: await c.product(), qty: 1, price: 100 }] }), 201);
    await c.ok(c.call('POST', `/api/sales_order/${so.id}/actions/approve`, c.admin));
    await c.ok(c.call('POST', `/api/sales_order/${so.id}/actions/close`, c.admin));
    const got = await report('sale_order_report', `date_from=${today}&date_to=${today}`);
    expect(got.rows.find((r) => r.doc_no === so.doc_no || r.doc_id === so.id), JSON.stringify(got.rows)).toBeDefined();
  });

  it('stock_profit_statement counts POS sales beside deliveries (issue 44 §10): returns netted, a sale refunded whole nets to nothing', async () => {
    const customer = await c.customer();
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { doc_date: today, your_company_id: company, customer_id: customer, inventory_id: inv, vat_type: 'exclude', items: [{ product_id: x, qty: 2, price: 120 }] }), 201);
    await c.ok(c.call('POST', `/api/sales_order/${so.id}/actions/approve`, c.admin));
    const d = await c.ok(c.call('POST', '/api/delivery_order/from/sales_order', c.admin, { ids: [so.id] }), 201);
    await c.ok(c.call('PATCH', `/api/delivery_order/${d.id}`, c.admin, { inventory_id: inv }));
    await c.ok(c.call('POST', `/api/delivery_order/${d.id}/actions/approve`, c.admin));
    const got = await report('stock_profit_statement', `date_from=${today}&date_to=${today}`);
    const row = got.rows.find((r) => Number(r.product_id) === x)!;
    // POS: 1 + (2 − 1 returned) + (3 − 3 refunded) + 5 + 4 + 10 (the other company's) = 21 units at 100.00 before VAT,
    // cost 50.00 each; the delivery: 2 units at 120.00
    expect(Number(row.qty)).toBeCloseTo(23, 4);
    expect(Number(row.sales_amount)).toBeCloseTo(21 * 100 + 240, 2);
    expect(Number(row.cost_amount)).toBeCloseTo(23 * 50, 2);
    expect(Number(row.profit_amount)).toBeCloseTo(21 * 50 + 140, 2);
  });
});
