/**
 * Issue 31 §1: once a source is fully processed, the documents made from it
 * total the source to the satang, also when each of them rounds its own VAT
 * (VAT excluded): the document that takes the last of the source carries the
 * rounding remainder in `vat_adjustment` (sales orders split from a quotation).
 * Issue 44 §9: a tax invoice never does (its VAT is rate × base, half-up), and an
 * order carrying a remainder is billed and paid to its last satang.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('VAT remainder on the last document of a source on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let customer: number;
  let product: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    customer = await c.customer();
    product = await c.product();
  });
  afterAll(async () => t?.close());

  const ok = async (method: 'GET' | 'POST', url: string, body?: unknown, status = 200): Promise<Row> => {
    const res = await c.call(method, url, c.admin, body);
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  /** The source split by quantity: a quotation, taken by sales orders. */
  const order = async (items: Row[], vat_type = 'exclude'): Promise<Row> => {
    const q = await ok('POST', '/api/quotation', { your_company_id: company, customer_id: customer, vat_type, items: items.map((i) => ({ product_id: product, ...i })) }, 201);
    return ok('POST', `/api/quotation/${q.id}/actions/approve`);
  };
  const invoice = async (q: Row, qty: number): Promise<Row> => {
    const so = await ok('POST', '/api/sales_order/from/quotation', { ids: [q.id], lines: [{ source_line_id: q.items[0].id, qty }] }, 201);
    return ok('POST', `/api/sales_order/${so.id}/actions/approve`);
  };
  const salesOrder = async (items: Row[]): Promise<Row> => {
    const so = await ok('POST', '/api/sales_order', { your_company_id: company, customer_id: customer, vat_type: 'exclude', items: items.map((i) => ({ product_id: product, ...i })) }, 201);
    return ok('POST', `/api/sales_order/${so.id}/actions/approve`);
  };
  const taxInvoice = async (so: Row, qty: number): Promise<Row> => {
    const iv = await ok('POST', '/api/tax_invoice/from/sales_order', { ids: [so.id], lines: [{ source_line_id: so.items[0].id, qty }] }, 201);
    return ok('POST', `/api/tax_invoice/${iv.id}/actions/issue`);
  };

  it('two invoices of 0.07 + VAT each total the order of 0.14 + 0.01 VAT: the second carries the satang', async () => {
    const so = await order([{ qty: 2, price: 0.07 }]);
    expect(so).toMatchObject({ amount_before_vat: 0.14, vat_amount: 0.01, total_amount: 0.15 });
    const first = await invoice(so, 1);
    expect(first).toMatchObject({ amount_before_vat: 0.07, vat_amount: 0, vat_adjustment: 0, total_amount: 0.07 });
    const last = await invoice(so, 1);
    expect(last).toMatchObject({ amount_before_vat: 0.07, vat_amount: 0.01, vat_adjustment: 0.01, total_amount: 0.08 });
    // the stored record says the same, and the engine's totals of it (what the form shows) agree
    expect(await ok('GET', `/api/sales_order/${last.id}`)).toMatchObject({ vat_amount: 0.01, vat_adjustment: 0.01, total_amount: 0.08 });
  });

  it('the remainder can go the other way, and cancelling the last invoice gives it to the one that replaces it', async () => {
    // 3 × 0.05 = 0.15: VAT 0.0105 → 0.01 on the order; 0.10 → 0.007 → 0.01 and 0.05 → 0.0035 → 0.00 on the parts: exact
    const so = await order([{ qty: 3, price: 0.05 }]);
    expect(so.total_amount).toBe(0.16);
    const a = await invoice(so, 2);
    expect(a.total_amount).toBe(0.11);
    const b = await invoice(so, 1);
    expect(b).toMatchObject({ vat_adjustment: 0, total_amount: 0.05 });
    expect(a.total_amount + b.total_amount).toBeCloseTo(0.16, 10);
    // another split the rounding does not touch
    const so2 = await order([{ qty: 2, price: 0.15 }]);
    // 0.30 → VAT 0.021 → 0.02: 0.32; parts 0.15 → 0.0105 → 0.01 each: 0.16 + 0.16 = 0.32, exact
    const p1 = await invoice(so2, 1);
    const p2 = await invoice(so2, 1);
    expect([p1.vat_adjustment, p2.vat_adjustment]).toEqual([0, 0]);
    // now parts that are over by a satang: 3 × 0.25 = 0.75 → 0.0525 → 0.05: 0.80; parts of 0.25 → 0.02 each: 0.81 — the third is a satang lower
    const so4 = await order([{ qty: 3, price: 0.25 }]);
    const q1 = await invoice(so4, 1);
    const q2 = await invoice(so4, 1);
    const q3 = await invoice(so4, 1);
    expect([q1.vat_adjustment, q2.vat_adjustment, q3.vat_adjustment]).toEqual([0, 0, -0.01]);
    expect(q3).toMatchObject({ vat_amount: 0.01, total_amount: 0.26 });
    // cancel the last: its replacement, taking the last unit again, carries the remainder again
    await ok('POST', `/api/sales_order/${q3.id}/actions/cancel`);
    const again = await invoice(so4, 1);
    expect(again).toMatchObject({ vat_adjustment: -0.01, total_amount: 0.26 });
    const live = [q1, q2, again].reduce((s, d) => s + Math.round(d.total_amount * 100), 0);
    expect(live).toBe(80);
  });

  it('VAT included needs no remainder: the parts of the total already add up', async () => {
    const so = await order([{ qty: 3, price: 0.05 }], 'include');
    const parts = [await invoice(so, 1), await invoice(so, 1), await invoice(so, 1)];
    expect(parts.map((p) => p.vat_adjustment)).toEqual([0, 0, 0]);
    expect(parts.reduce((s, d) => s + Math.round(d.total_amount * 100), 0)).toBe(Math.round(so.total_amount * 100));
  });

  it('a tax invoice is rate × base, half-up: the one that finishes an order carries no remainder (issue 44 §9)', async () => {
    const so = await salesOrder([{ qty: 2, price: 0.07 }]);
    expect(so).toMatchObject({ vat_amount: 0.01, total_amount: 0.15 });
    const parts = [await taxInvoice(so, 1), await taxInvoice(so, 1)];
    // 0.07 × 7 % = 0.0049 → 0.00 each: the invoices state the VAT the law asks of each, not the order's
    for (const p of parts) expect(p).toMatchObject({ amount_before_vat: 0.07, vat_amount: 0, vat_adjustment: 0, total_amount: 0.07 });
    // 471.35 × 7 % = 32.9945 → 32.99, whatever went before
    const big = await salesOrder([{ qty: 3, price: 471.35 }]);
    await taxInvoice(big, 2);
    expect(await taxInvoice(big, 1)).toMatchObject({ amount_before_vat: 471.35, vat_amount: 32.99, total_amount: 504.34 });
  });

  it('an order carrying a remainder is billed and paid to its last satang (issue 44 §9: 107.06 could only be billed 107.05)', async () => {
    const q = await order([{ qty: 2, price: 0.07 }]);
    await invoice(q, 1);
    const last = await invoice(q, 1);
    expect(last).toMatchObject({ vat_adjustment: 0.01, total_amount: 0.08 });
    const open = await ok('GET', `/api/billing_note/from/sales_order?ids=${last.id}`);
    expect(open.map((l: Row) => l.remaining)).toEqual([0.08]);
    const bill = await ok('POST', '/api/billing_note/from/sales_order', { ids: [last.id] }, 201);
    expect(bill.total_amount).toBe(0.08);
    const issued = await ok('POST', `/api/billing_note/${bill.id}/actions/issue`);
    const rc = await ok('POST', '/api/receipt/from/billing_note', { ids: [issued.id] }, 201);
    expect(rc.total_amount).toBe(0.08);
    expect((await ok('POST', `/api/receipt/${rc.id}/actions/post`)).total_amount).toBe(0.08);
    expect((await ok('GET', `/api/billing_note/${issued.id}`)).status).toBe('paid');
  });
});
