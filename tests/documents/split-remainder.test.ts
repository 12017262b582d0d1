/**
 * Issue 44 §9, "the finishing document takes exactly what is left": the satang a split leaves over goes to the part
 * that finishes (engine/documents/part-remainder.ts).
 * - An order line of fractional quantity invoiced in parts: 3 × 33.33 = 99.99 in halves came to 50.00 + 50.00;
 *   the second invoice's line now takes 0.01 of discount and comes to 49.99, so the invoices total the order.
 * - When the earlier parts rounded down (4.2 × 0.33 = 1.39 invoiced 1.4 at a time: 0.46 + 0.46), a discount cannot
 *   add, so the invoice whose issue finishes the line gets the missing satang as `rounding_amount`: 0.47.
 * - Partial credit notes reverse the invoice's VAT in proportion, and the last one exactly what is left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';

type Row = Record<string, any>;
const satang = (baht: number) => Math.round(baht * 100);

describe.each(testDialects())('the satang of a split on the finishing part on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let customer: number;
  let product: number;
  let reason: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    customer = await c.customer();
    product = await c.product();
    reason = (await ok('POST', '/api/return_reason', { code: 'DMG', name_th: 'สินค้าชำรุด', return_side: 'sales' }, 201)).id;
  });
  afterAll(async () => t?.close());

  async function ok(method: 'GET' | 'POST', url: string, body?: unknown, status = 200): Promise<Row> {
    const res = await c.call(method, url, c.admin, body);
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  }
  const order = async (qty: number, price: number): Promise<Row> => {
    const so = await ok('POST', '/api/sales_order', { your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty, price }] }, 201);
    return ok('POST', `/api/sales_order/${so.id}/actions/approve`);
  };
  const invoice = async (so: Row, qty?: number): Promise<Row> => {
    const iv = await ok('POST', '/api/tax_invoice/from/sales_order', { ids: [so.id], ...(qty === undefined ? {} : { lines: [{ source_line_id: so.items[0].id, qty }] }) }, 201);
    return ok('POST', `/api/tax_invoice/${iv.id}/actions/issue`);
  };
  const credit = async (iv: Row, amount: number): Promise<Row> => {
    const cn = await ok('POST', '/api/credit_note/from/tax_invoice', { ids: [iv.id], values: { return_reason_id: reason }, lines: [{ source_line_id: iv.items[0].id, amount }] }, 201);
    return ok('POST', `/api/credit_note/${cn.id}/actions/issue`);
  };

  it('halves of 3 × 33.33 are invoiced 50.00 and 49.99: the invoices total the order, each VAT its own rate × base', async () => {
    const so = await order(3, 33.33);
    expect(so).toMatchObject({ amount_before_vat: 99.99, vat_amount: 7, total_amount: 106.99 });
    const first = await invoice(so, 1.5);
    expect(first.items.map((l: Row) => [l.qty, l.discount_amount, l.amount])).toEqual([[1.5, 0, 50]]);
    const last = await invoice(so, 1.5);
    expect(last.items.map((l: Row) => [l.qty, l.price, l.discount_amount, l.amount])).toEqual([[1.5, 33.33, 0.01, 49.99]]);
    // 49.99 × 7 % = 3.4993 → 3.50
    expect(last).toMatchObject({ amount_before_vat: 49.99, vat_amount: 3.5, vat_adjustment: 0, total_amount: 53.49 });
    expect(satang(first.amount_before_vat) + satang(last.amount_before_vat)).toBe(satang(so.amount_before_vat));
    expect(satang(first.total_amount) + satang(last.total_amount)).toBe(satang(so.total_amount));
    expect((await ok('GET', `/api/sales_order/${so.id}`)).billing_status).toBe('billed');
  });

  it('earlier parts that rounded down: the finishing invoice takes the missing satang when it is issued, and its VAT is rate × its base', async () => {
    const so = await order(4.2, 0.33);
    // 4.2 × 0.33 = 1.386 → 1.39
    expect(so).toMatchObject({ amount_before_vat: 1.39 });
    const parts = [await invoice(so, 1.4), await invoice(so, 1.4)];
    // 1.4 × 0.33 = 0.462 → 0.46 each: together 0.92, leaving 0.47 for a part priced 0.46
    expect(parts.map((p) => [p.items[0].amount, p.items[0].rounding_amount])).toEqual([[0.46, 0], [0.46, 0]]);
    const last = await invoice(so, 1.4);
    expect(last.items.map((l: Row) => [l.qty, l.price, l.discount_amount, l.rounding_amount, l.amount])).toEqual([[1.4, 0.33, 0, 0.01, 0.47]]);
    // 0.47 × 7 % = 0.0329 → 0.03: the stored totals are the engine's of the stored lines
    expect(last).toMatchObject({ subtotal: 0.47, amount_before_vat: 0.47, vat_amount: 0.03, total_amount: 0.5 });
    expect(await ok('GET', `/api/tax_invoice/${last.id}`)).toMatchObject({ amount_before_vat: 0.47, total_amount: 0.5, items: [expect.objectContaining({ amount: 0.47, rounding_amount: 0.01 })] });
    expect([...parts, last].reduce((s, p) => s + satang(p.amount_before_vat), 0)).toBe(satang(so.amount_before_vat));
    expect((await ok('GET', `/api/sales_order/${so.id}`)).billing_status).toBe('billed');
  });

  it('a rounding adjustment is the server\'s: a client cannot send one', async () => {
    const res = await c.call('POST', '/api/tax_invoice', c.admin, { your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 1, price: 10, rounding_amount: 0.5 }] });
    expect(res.statusCode, res.body).toBe(400);
    // a line's server-computed fields are not among those a body may hold, as its amount is not
    expect(res.json().error).toMatchObject({ code: 'UNKNOWN_FIELD', details: { fields: [{ field: 'items.0.rounding_amount' }] } });
  });

  it('a part that rounds exactly, or a line taken whole, takes no discount', async () => {
    const so = await order(3, 33.34);
    const parts = [await invoice(so, 1.5), await invoice(so, 1.5)];
    expect(parts.map((p) => p.items[0].discount_amount)).toEqual([0, 0]);
    expect(parts.reduce((s, p) => s + satang(p.amount_before_vat), 0)).toBe(10002);
    const whole = await invoice(await order(3, 33.33));
    expect(whole.items[0]).toMatchObject({ discount_amount: 0, amount: 99.99 });
  });

  it('partial credit notes reverse the VAT in proportion, the last one what is left: 23.33 + 23.34 + 23.33 = 70.00', async () => {
    const iv = await invoice(await order(1, 1000));
    expect(iv).toMatchObject({ amount_before_vat: 1000, vat_amount: 70, total_amount: 1070 });
    const notes = [await credit(iv, 356.67), await credit(iv, 356.67), await credit(iv, 356.66)];
    expect(notes.map((n) => [n.total_amount, n.amount_before_vat, n.vat_amount])).toEqual([[356.67, 333.34, 23.33], [356.67, 333.33, 23.34], [356.66, 333.33, 23.33]]);
    expect(notes.reduce((s, n) => s + satang(n.vat_amount), 0)).toBe(7000);
    expect(notes.reduce((s, n) => s + satang(n.amount_before_vat), 0)).toBe(100000);
    // what is stored is what is answered, and the engine's totals of it agree (the note was issued through the totals check)
    expect(await ok('GET', `/api/credit_note/${notes[1]!.id}`)).toMatchObject({ vat_adjustment: 0.01, vat_amount: 23.34, amount_before_vat: 333.33, total_amount: 356.67 });
  });

  it('half an invoice reverses half its VAT', async () => {
    const iv = await invoice(await order(1, 471.35));
    // 471.35 × 7 % = 32.9945 → 32.99; total 504.34
    expect(iv).toMatchObject({ vat_amount: 32.99, total_amount: 504.34 });
    const half = await credit(iv, 252.17);
    // 32.99 × 252.17 / 504.34 = 16.495 → 16.50 (half-up); 252.17 × 7/107 would also give 16.50
    expect(half).toMatchObject({ total_amount: 252.17, vat_amount: 16.5, amount_before_vat: 235.67 });
    const rest = await credit(iv, 252.17);
    expect(satang(half.vat_amount) + satang(rest.vat_amount)).toBe(3299);
    expect(rest).toMatchObject({ vat_amount: 16.49, amount_before_vat: 235.68 });
  });
});
