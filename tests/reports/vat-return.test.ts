/**
 * Issue 50 §4 and §5: the ภ.พ.30 worksheet (vat_return) reads the documents the tax reports read, so for a month
 * its output VAT is sales_tax_report's VAT and its input VAT purchase_tax_report's, in its totals and its one row.
 * Zero-rated and exempt sales are told apart by the product's vat_type on the lines that carried no VAT.
 * The month's documents are issue 32's report fixture (tax invoices, a credit and a debit note, purchase invoices),
 * plus one invoice without VAT of a zero-rated and an exempt product.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { buildReportFixture, type ReportFixture } from './report-fixture.ts';

type Row = Record<string, any>;
const cents = (n: unknown) => Math.round(Number(n) * 100);
const FIGURES = ['sales_amount', 'zero_rated_sales', 'exempt_sales', 'taxable_sales', 'output_vat', 'purchase_amount', 'input_vat', 'vat_payable', 'vat_credit'];

describe.each(testDialects())('the VAT return worksheet on %s', (dialect) => {
  let t: TestApp;
  let f: ReportFixture;
  const month = '2026-11';

  beforeAll(async () => {
    t = await createTestApp(dialect);
    f = await buildReportFixture(t);
    const { c, id } = f;
    const zero = await c.make('product', { code: 'Z1', name_th: 'สินค้าส่งออก', product_class: 'product', unit: 'ชิ้น', price: 250, vat_type: 'zero' });
    const exempt = await c.make('product', { code: 'E1', name_th: 'ผักสด', product_class: 'product', unit: 'ชิ้น', price: 40, vat_type: 'exempt' });
    const d = await c.ok(c.call('POST', '/api/tax_invoice', c.admin, { doc_date: '2026-11-12', customer_id: id.C1, your_company_id: id.RC, vat_type: 'none',
      buyer_name: 'บริษัท ลูกค้า C1 จำกัด', items: [{ product_id: zero, qty: 2, price: 250 }, { product_id: exempt, qty: 3, price: 40 }] }), 201);
    await c.ok(c.call('POST', `/api/tax_invoice/${d.id}/actions/issue`, c.admin));
  }, 600_000);
  afterAll(async () => { await t?.close(); });

  const report = async (name: string, query: string) => (await f.c.ok(f.c.call('GET', `/api/report/${name}?${query}&limit=1000`, f.c.admin))) as { rows: Row[]; totals: Row };

  it('output VAT is the sales tax report\'s, input VAT the purchase tax report\'s, in the totals and the one row', async () => {
    const q = `month=${month}&company=${f.id.RC}`;
    const [vat, sales, purchases] = [await report('vat_return', q), await report('sales_tax_report', q), await report('purchase_tax_report', q)];
    expect(vat.rows).toHaveLength(1);
    const row = vat.rows[0]!;
    expect(Object.keys(vat.totals).sort()).toEqual([...FIGURES].sort());
    for (const k of FIGURES) expect(cents(row[k]), k).toBe(cents(vat.totals[k]));
    expect(cents(row.output_vat)).toBe(cents(sales.totals.vat_amount));
    expect(cents(row.sales_amount)).toBe(cents(sales.totals.amount_before_vat));
    expect(cents(row.input_vat)).toBe(cents(purchases.totals.vat_amount));
    expect(cents(row.output_vat)).not.toBe(0);
    // the lines that carried no VAT: 2 × 250.00 zero-rated, 3 × 40.00 exempt
    expect([cents(row.zero_rated_sales), cents(row.exempt_sales)]).toEqual([50000, 12000]);
    expect(cents(row.taxable_sales)).toBe(cents(row.sales_amount) - 50000 - 12000);
    const due = cents(row.output_vat) - cents(row.input_vat);
    expect([cents(row.vat_payable), cents(row.vat_credit)]).toEqual([Math.max(due, 0), Math.max(-due, 0)]);
  });

  it('the books agree: the output_vat and input_vat accounts moved by the month\'s output and input VAT (issue 50 §5)', async () => {
    const vat = (await report('vat_return', `month=${month}&company=${f.id.RC}`)).rows[0]!;
    const tb = await report('trial_balance', `date_from=${month}-01&date_to=${month}-30&company=${f.id.RC}`);
    const movement = (role: string) => { const r = tb.rows.find((x) => x.role === role); return r ? cents(r.debit) - cents(r.credit) : 0; };
    expect(-movement('output_vat')).toBe(cents(vat.output_vat));
    // input VAT is claimed in the month the purchase invoice is recorded, the month it is posted in (the fixture's PI1:
    // recorded 2 November on a supplier's invoice of 31 October)
    expect(movement('input_vat')).toBe(cents(vat.input_vat));
    expect(cents(vat.input_vat)).toBe(35350);
  });

  it('a month without documents answers zeros', async () => {
    const got = await report('vat_return', `month=2020-01&company=${f.id.RC}`);
    for (const k of FIGURES) expect(cents(got.rows[0]![k]), k).toBe(0);
  });
});
