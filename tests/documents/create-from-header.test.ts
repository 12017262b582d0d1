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

  it('a goods receipt takes its purchase order\'s warehouse, and a transfer its delivery\'s as the one it moves from (issue 48 §4)', async () => {
    const company = await c.company();
    const [main, other] = [await c.inventory(company), await c.inventory(company)];
    const supplier = await c.make('supplier', { code: c.next('S'), name_th: 'ผู้ขาย' });
    const po = (await c.call('POST', '/api/purchase_order', c.admin, { your_company_id: company, supplier_id: supplier, inventory_id: main, vat_type: 'exclude', items: [{ product_id: product, qty: 5, price: 10 }] })).json().data;
    const approved = await c.call('POST', `/api/purchase_order/${po.id}/actions/approve`, c.admin);
    expect(approved.statusCode, approved.body).toBe(200);
    const gr = await c.call('POST', '/api/goods_receipt/from/purchase_order', c.admin, { ids: [po.id] });
    expect(gr.statusCode, gr.body).toBe(201);
    expect(gr.json().data.inventory_id).toBe(main);
    // the person may choose another warehouse: the order's is where the receipt starts, not a rule
    const elsewhere = await c.call('POST', '/api/goods_receipt/from/purchase_order', c.admin, { ids: [po.id], values: { inventory_id: other } });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    expect(elsewhere.json().data.inventory_id).toBe(other);
    const posted = await c.call('POST', `/api/goods_receipt/${elsewhere.json().data.id}/actions/approve`, c.admin);
    expect(posted.statusCode, posted.body).toBe(200);

    await c.call('POST', `/api/stock_movement`, c.admin, c.stockMovementBody(product, main, { qty: 10 }));
    // a delivery of the order of this file (deliveries come from orders on this site)
    const made = await c.call('POST', '/api/delivery_order/from/sales_order', c.admin, { ids: [order.id], lines: [{ source_line_id: order.items[0].id, qty: 2 }], values: { inventory_id: main } });
    expect(made.statusCode, made.body).toBe(201);
    const dOk = await c.call('POST', `/api/delivery_order/${made.json().data.id}/actions/approve`, c.admin);
    expect(dOk.statusCode, dOk.body).toBe(200);
    const transfer = await c.call('POST', '/api/internal_product_transfer/from/delivery_order', c.admin, { ids: [made.json().data.id], values: { to_inventory_id: other } });
    expect(transfer.statusCode, transfer.body).toBe(201);
    expect(transfer.json().data).toMatchObject({ from_inventory_id: main, to_inventory_id: other });
  });
});
