/**
 * The create-from screen's header values (issue 9 "create from"): POST
 * /api/{target}/from/{source} takes `values`, header fields of the new document,
 * judged as a normal create: read-only, status and unknown fields are refused
 * with 4xx and nothing is made; a field the sources give may not be changed.
 * The open lines name their product by code and name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('create-from header values on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let order: Row;
  let customer: number, other: number, product: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    const company = await c.company();
    customer = await c.customer();
    other = await c.customer();
    product = await c.product({ name_th: 'ฟิล์มยืดพันพาเลท', name_en: 'Stretch film' });
    const made = await c.call('POST', '/api/sales_order', c.admin, { doc_date: '2026-11-10', your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 10, price: 100 }] });
    expect(made.statusCode, made.body).toBe(201);
    order = (await c.call('POST', `/api/sales_order/${made.json().data.id}/actions/approve`, c.admin)).json().data;
  });
  afterAll(async () => t?.close());

  const from = (values: Row, headers = c.admin) => c.call('POST', '/api/tax_invoice/from/sales_order', headers, { ids: [order.id], lines: [{ source_line_id: order.items[0].id, qty: 2 }], values });
  const invoices = async () => (await c.call('GET', '/api/tax_invoice?meta=total_count&limit=1', c.admin)).json().meta.total_count as number;

  it('applies the header values the user sets: date, due date, reference and remark', async () => {
    const res = await from({ doc_date: '2026-11-21', due_date: '2026-12-21', customer_reference: 'PO-7781', remark: 'ส่งพร้อมใบกำกับ' });
    expect(res.statusCode, res.body).toBe(201);
    const made = (await c.call('GET', `/api/tax_invoice/${res.json().data.id}`, c.admin)).json().data;
    expect(made).toMatchObject({ doc_date: '2026-11-21', due_date: '2026-12-21', customer_reference: 'PO-7781', remark: 'ส่งพร้อมใบกำกับ', customer_id: customer, status: 'draft' });
    expect(made.items).toEqual([expect.objectContaining({ source_line_id: order.items[0].id, qty: 2 })]);
    // the same customer as the source is accepted
    expect((await from({ customer_id: customer })).statusCode).toBe(201);
  });

  it('refuses read-only, status, unknown and source-given fields with 4xx, and makes nothing', async () => {
    const before = await invoices();
    expectError(await from({ doc_no: 'IV-FORGED' }), 400, 'READ_ONLY_FIELD');
    expectError(await from({ subtotal: 1 }), 400, 'READ_ONLY_FIELD');
    const status = await from({ status: 'issued' });
    expect(status.statusCode, status.body).toBeGreaterThanOrEqual(400);
    expect(status.statusCode).toBeLessThan(500);
    expectError(await from({ no_such_field: 1 }), 400, 'UNKNOWN_FIELD');
    const clash = await from({ customer_id: other });
    expectError(clash, 400, 'VALIDATION_FAILED');
    expect(clash.json().error.details.fields[0].field).toBe('values.customer_id');
    expectError(await from({ items: [] }), 400, 'VALIDATION_FAILED');
    expectError(await c.call('POST', '/api/tax_invoice/from/sales_order', c.admin, { ids: [order.id], values: 'x' }), 400, 'VALIDATION_FAILED');
    expect(await invoices()).toBe(before);
  });

  it('holds the caller to its rights: a role without edit on tax invoices is refused', async () => {
    const viewer = await c.staff('iv_viewer', { tax_invoice: { view: true }, sales_order: { view: true } });
    const res = await from({ remark: 'x' }, viewer.headers);
    expect(res.statusCode, res.body).toBe(403);
  });

  it('the open lines name their product by code and name', async () => {
    const res = await c.call('GET', `/api/tax_invoice/from/sales_order?ids=${order.id}`, c.admin);
    expect(res.statusCode, res.body).toBe(200);
    const code = (await c.call('GET', `/api/product/${product}`, c.admin)).json().data.code;
    expect(res.json().data[0]).toMatchObject({ product_id: product, product_code: code, product_name: 'ฟิล์มยืดพันพาเลท', product_name_en: 'Stretch film' });
  });
});
