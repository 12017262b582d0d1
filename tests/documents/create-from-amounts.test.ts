/**
 * Issue 31 §1: a document made from another carries its line discounts (amounts and percents),
 * its document discount, its VAT type and its withholding rates; a part carries its share of the
 * document discount (remainder on the last take); once a source is fully processed the documents
 * made from it total its total to the satang, in every chain; over-processing is judged after every
 * discount. The order of the issue: 10 × 100 and 2 × 500 less 200 (subtotal 1,800), 10 % off,
 * VAT 7 % excluded, WHT 3 %: total 1,733.40 (engine/documents/document-spread.test.ts checks it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('create-from carries every discount on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let customer: number;
  let products: number[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    customer = await c.customer();
    products = [await c.product(), await c.product()];
  });
  afterAll(async () => t?.close());

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const get = (entity: string, id: number) => ok(c.call('GET', `/api/${entity}/${id}`, c.admin));
  const act = (entity: string, id: number, action: string) => ok(c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin));
  const from = (target: string, source: string, body: Row) => ok(c.call('POST', `/api/${target}/from/${source}`, c.admin, body), 201);
  const totals = (d: Row) => ({ subtotal: d.subtotal, discount_amount: d.discount_amount, amount_before_vat: d.amount_before_vat, vat_amount: d.vat_amount, total_amount: d.total_amount, wht_amount: d.wht_amount, net_amount: d.net_amount });
  const ISSUE = { subtotal: 1800, discount_amount: 180, amount_before_vat: 1620, vat_amount: 113.4, total_amount: 1733.4, wht_amount: 48.6, net_amount: 1684.8 };

  /** The issue's order, made in full from a quotation with the same figures, and approved. */
  const salesOrder = async (): Promise<Row> => {
    const q = await ok(c.call('POST', '/api/quotation', c.admin, {
      doc_date: '2026-11-02', your_company_id: company, customer_id: customer, vat_type: 'exclude', discount_percent: 10, wht_rate: 3,
      items: [{ product_id: products[0], qty: 10, price: 100 }, { product_id: products[1], qty: 2, price: 500, discount_amount: 200 }],
    }), 201);
    expect(totals(q)).toEqual(ISSUE);
    await act('quotation', q.id, 'approve');
    const so = await from('sales_order', 'quotation', { ids: [q.id] });
    // quotation → sales order carries the line discount, the document discount, the VAT type and WHT
    expect(totals(so)).toEqual(ISSUE);
    expect(so).toMatchObject({ vat_type: 'exclude', discount_percent: 10, wht_rate: 3 });
    expect(so.items.map((l: Row) => [l.discount_amount, l.amount, l.wht_rate])).toEqual([[0, 1000, 3], [200, 800, 3]]);
    await act('sales_order', so.id, 'approve');
    expect((await get('quotation', q.id)).status).toBe('ordered');
    return get('sales_order', so.id);
  };

  it('a tax invoice, a billing note and a receipt made from the whole order total 1,733.40', async () => {
    const so = await salesOrder();
    const iv = await from('tax_invoice', 'sales_order', { ids: [so.id] });
    expect(totals(iv)).toEqual(ISSUE);
    expect(iv).toMatchObject({ discount_percent: 10, wht_rate: 3 });
    const bn = await from('billing_note', 'sales_order', { ids: [so.id] });
    expect(bn.items.map((l: Row) => l.amount)).toEqual([963, 770.4]);
    expect(bn).toMatchObject({ vat_type: 'exclude', total_amount: 1733.4, vat_amount: 113.4, amount_before_vat: 1620 });
    await act('billing_note', bn.id, 'issue');
    const rb = await from('receipt', 'billing_note', { ids: [bn.id] });
    expect(rb.total_amount).toBe(1733.4);
    await act('receipt', rb.id, 'post');
    expect((await get('billing_note', bn.id)).status).toBe('paid');
    // billed and paid, the order has nothing left to receive straight (issue 44 §1: one figure per order)
    const again = await c.call('POST', '/api/receipt/from/sales_order', c.admin, { ids: [so.id] });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().error.code).toBe('OVER_PROCESSED');
    // a receipt straight from another such order takes its whole total
    const rs = await from('receipt', 'sales_order', { ids: [(await salesOrder()).id] });
    expect(rs.total_amount).toBe(1733.4);
  });

  it('parts carry their share of both discounts, and the parts add up to the order to the satang', async () => {
    const so = await salesOrder();
    // 4 of 10 × 100 and 1 of 2 × 500: line 1 brings 4/10 of its 100 of the discount, line 2 half of its 200 and of its 80
    const first = await from('tax_invoice', 'sales_order', { ids: [so.id], lines: [{ source_line_id: so.items[0].id, qty: 4 }, { source_line_id: so.items[1].id, qty: 1 }] });
    expect(first.items.map((l: Row) => [l.qty, l.discount_amount, l.amount])).toEqual([[4, 0, 400], [1, 100, 400]]);
    expect(totals(first)).toEqual({ subtotal: 800, discount_amount: 80, amount_before_vat: 720, vat_amount: 50.4, total_amount: 770.4, wht_amount: 21.6, net_amount: 748.8 });
    await act('tax_invoice', first.id, 'issue');
    expect((await get('sales_order', so.id)).status).toBe('in_progress');
    const rest = await from('tax_invoice', 'sales_order', { ids: [so.id] });
    expect(totals(rest)).toEqual({ subtotal: 1000, discount_amount: 100, amount_before_vat: 900, vat_amount: 63, total_amount: 963, wht_amount: 27, net_amount: 936 });
    await act('tax_invoice', rest.id, 'issue');
    expect((await get('sales_order', so.id)).billing_status).toBe('billed');
    expect(first.total_amount + rest.total_amount).toBe(1733.4);
  });

  it('a line invoiced in parts carries its percent discount as the part of it for those units, so the parts add up', async () => {
    // 3 × 0.30 less 5 % = 0.90 − 0.045 → 0.05 = 0.85 (VAT included); 5 % of each 0.30 would be 0.02 three times
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, {
      your_company_id: company, customer_id: customer, vat_type: 'include', items: [{ product_id: products[0], qty: 3, price: 0.3, discount_percent: 5 }],
    }), 201);
    expect(so.total_amount).toBe(0.85);
    await act('sales_order', so.id, 'approve');
    const parts = [];
    for (let i = 0; i < 3; i++) {
      const iv = await from('tax_invoice', 'sales_order', { ids: [so.id], lines: [{ source_line_id: so.items[0].id, qty: 1 }] });
      parts.push(await act('tax_invoice', iv.id, 'issue'));
    }
    expect(parts.map((p) => p.items[0].discount_amount)).toEqual([0.02, 0.01, 0.02]);
    expect(parts.map((p) => p.total_amount)).toEqual([0.28, 0.29, 0.28]);
    expect((await get('sales_order', so.id)).billing_status).toBe('billed');
  });

  it('over-billing is judged after every discount and with VAT: line 1 holds 963.00, not 1,000 before VAT', async () => {
    const so = await salesOrder();
    const open = await ok(c.call('GET', `/api/billing_note/from/sales_order?ids=${so.id}`, c.admin));
    expect(open.map((l: Row) => [l.ordered, l.remaining])).toEqual([[963, 963], [770.4, 770.4]]);
    const over = await c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: so.items[0].id, amount: 963.01 }] });
    expectError(over, 409, 'OVER_PROCESSED');
    expect(over.json().error.details).toMatchObject({ remaining: 963 });
    const part = await from('billing_note', 'sales_order', { ids: [so.id], lines: [{ source_line_id: so.items[0].id, amount: 500.01 }] });
    await act('billing_note', part.id, 'issue');
    const rest = await from('billing_note', 'sales_order', { ids: [so.id] });
    expect(rest.items.map((l: Row) => l.amount)).toEqual([462.99, 770.4]);
    await act('billing_note', rest.id, 'issue');
    expect(part.total_amount + rest.total_amount).toBe(1733.4);
    expectError(await c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id] }), 409, 'OVER_PROCESSED');
  });
});
