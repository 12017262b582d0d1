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
});
