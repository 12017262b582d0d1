/**
 * The sales chain on the real schemas: quotation → sales order, partly and
 * then wholly, with the quotation's status following; a posted order refuses
 * edits, and is changed by cancel and amend.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('quotation to sales order on %s', (dialect) => {
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
  const quotation = async () => {
    const q = await ok(c.call('POST', '/api/quotation', c.admin, {
      doc_date: '2026-11-20', your_company_id: company, customer_id: customer, vat_type: 'exclude',
      items: [{ product_id: products[0], qty: 60, price: 345 }, { product_id: products[1], qty: 12, price: 1200, discount_percent: 5 }],
    }), 201);
    expect(q.doc_no).toMatch(/^QT\d{6}-\d{4}$/);
    return ok(c.call('POST', `/api/quotation/${q.id}/actions/approve`, c.admin));
  };
  const quotationStatus = async (id: number) => (await ok(c.call('GET', `/api/quotation/${id}`, c.admin))).status;

  it('orders part of a quotation, then the rest, and the quotation follows', async () => {
    const q = await quotation();
    const so1 = await ok(c.call('POST', '/api/sales_order/from/quotation', c.admin, { ids: [q.id], lines: [{ source_line_id: q.items[0].id, qty: 20 }] }), 201);
    expect(so1).toMatchObject({ customer_id: customer, your_company_id: company, vat_type: 'exclude', status: 'draft' });
    expect(so1.items).toHaveLength(1);
    expect(so1.items[0]).toMatchObject({ product_id: products[0], qty: 20, price: 345, source_line_id: q.items[0].id });
    await ok(c.call('POST', `/api/sales_order/${so1.id}/actions/approve`, c.admin));
    expect(await quotationStatus(q.id)).toBe('partially_ordered');
    const so2 = await ok(c.call('POST', '/api/sales_order/from/quotation', c.admin, { ids: [q.id] }), 201);
    expect(so2.items.map((l: Row) => l.qty)).toEqual([40, 12]);
    expect(so2.items[1].discount_percent).toBe(5);
    await ok(c.call('POST', `/api/sales_order/${so2.id}/actions/approve`, c.admin));
    expect(await quotationStatus(q.id)).toBe('ordered');
  });

  it('a posted order refuses edits and a status write; cancel and amend makes a linked draft', async () => {
    const q = await quotation();
    const so = await ok(c.call('POST', '/api/sales_order/from/quotation', c.admin, { ids: [q.id] }), 201);
    expectError(await c.call('PATCH', `/api/sales_order/${so.id}`, c.admin, { status: 'completed' }), 400, 'READ_ONLY_FIELD');
    await ok(c.call('POST', `/api/sales_order/${so.id}/actions/approve`, c.admin));
    expectError(await c.call('PATCH', `/api/sales_order/${so.id}`, c.admin, { customer_reference: 'PO-999' }), 409, 'DOCUMENT_LOCKED');
    expectError(await c.call('POST', `/api/sales_order/${so.id}/amend`, c.admin), 409, 'INVALID_TRANSITION');
    await ok(c.call('POST', `/api/sales_order/${so.id}/actions/cancel`, c.admin));
    expect(await quotationStatus(q.id)).toBe('approved');
    const amended = await ok(c.call('POST', `/api/sales_order/${so.id}/amend`, c.admin), 201);
    expect(amended).toMatchObject({ amended_from: so.id, status: 'draft', customer_id: customer });
    expect(amended.doc_no).not.toBe(so.doc_no);
    expect(amended.items.map((l: Row) => [l.source_line_id, l.qty])).toEqual(so.items.map((l: Row) => [l.source_line_id, l.qty]));
    await ok(c.call('POST', `/api/sales_order/${amended.id}/actions/approve`, c.admin));
    expect(await quotationStatus(q.id)).toBe('ordered');
  });

  it('the server computes every amount, the way docs/documents.md works them out', async () => {
    const q = await ok(c.call('POST', '/api/quotation', c.admin, {
      doc_date: '2026-11-20', your_company_id: company, customer_id: customer, vat_type: 'exclude', wht_rate: 3,
      items: [{ product_id: products[0], qty: 60, price: 345 }, { product_id: products[1], qty: '12', price: '1200.00', discount_percent: 5 }],
    }), 201);
    expect(q.items.map((l: Row) => [l.amount, l.discount_amount])).toEqual([[20700, 0], [13680, 720]]);
    expect(q).toMatchObject({ subtotal: 34380, discount_amount: 0, amount_before_vat: 34380, vat_rate: 7, vat_amount: 2406.6, total_amount: 36786.6, wht_amount: 1031.4, net_amount: 35755.2 });
    // a bill discount and VAT included; a patch of the header recomputes from the stored lines
    const p = await ok(c.call('PATCH', `/api/quotation/${q.id}`, c.admin, { vat_type: 'include', discount_amount: 380, wht_rate: 0 }));
    expect(p).toMatchObject({ subtotal: 34380, discount_amount: 380, total_amount: 34000, vat_amount: 2224.3, amount_before_vat: 31775.7, wht_amount: 0, net_amount: 34000 });
    // amounts are the server's: a client cannot send them, and over-precise inputs are refused
    expectError(await c.call('PATCH', `/api/quotation/${q.id}`, c.admin, { total_amount: 1 }), 400, 'READ_ONLY_FIELD');
    const bad = await c.call('PATCH', `/api/quotation/${q.id}`, c.admin, { items: [{ product_id: products[0], qty: 1, price: 10, wht_rate: 4 }] });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.json().error.details.fields[0].field).toBe('items.0.wht_rate');
  });
});
