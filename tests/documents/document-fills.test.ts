/**
 * Issue 38 §3: fields that fill themselves, declared in the schemas (fillFrom,
 * fillFrom.priceList, dateFrom) and applied by the server to an API create or
 * update that leaves them out, and by POST /api/<entity>/fills for the form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, thaiTaxId } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('document fills on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let listed: number; // in the price list: 340 from 1, 320 from 10
  let plain: number; // not in it: its own price 360
  let customer: number; // with the price list, 45 days, a contact and a salesperson
  let bare: number; // no price list
  let salesperson: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    listed = await c.product({ unit: 'ม้วน', price: 360, cost: 250 });
    plain = await c.product({ unit: 'กล่อง', price: 360, cost: 200 });
    const priceList = await c.make('price_list', { code: c.next('PL'), name_th: 'ราคาลูกค้าประจำ', currency: 'THB', items: [
      { product_id: listed, min_qty: 1, unit_price: 340 }, { product_id: listed, min_qty: 10, unit_price: 320 },
    ] });
    salesperson = await c.make('staff', { code: c.next('EMP'), first_name_th: 'สมศรี' });
    customer = await c.make('customer', { code: c.next('C'), customer_type: 'juristic', name_th: 'บริษัท สยามฟู้ดแพ็ค จำกัด', tax_id: thaiTaxId(745547777), branch_code: '00000',
      credit_term_days: 45, contact_name: 'คุณวิภา', price_list_id: priceList, salesperson_id: salesperson });
    bare = await c.customer();
  });
  afterAll(async () => t?.close());

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };

  it('a quotation made through the API with only products and quantities gets units, list prices and the customer\'s terms', async () => {
    const q = await ok(c.call('POST', '/api/quotation', c.admin, { doc_date: '2026-11-02', your_company_id: company, customer_id: customer, vat_type: 'exclude',
      items: [{ product_id: listed, qty: 2 }, { product_id: listed, qty: 12 }, { product_id: plain, qty: 1 }, { product_id: listed, qty: 1, price: 999, unit: 'แพ็ค' }] }), 201);
    expect(q.items.map((l: Row) => [l.unit, l.price])).toEqual([['ม้วน', 340], ['ม้วน', 320], ['กล่อง', 360], ['แพ็ค', 999]]);
    expect(q).toMatchObject({ contact_name: 'คุณวิภา', credit_term_days: 45, salesperson_id: salesperson, subtotal: 680 + 3840 + 360 + 999 });
  });

  it('a line without a quantity takes 1 (the schema default of qty), and its amount follows its price', async () => {
    const q = await ok(c.call('POST', '/api/quotation', c.admin, { doc_date: '2026-11-02', your_company_id: company, customer_id: bare, vat_type: 'exclude', items: [{ product_id: plain }] }), 201);
    expect(q.items[0]).toMatchObject({ qty: 1, unit: 'กล่อง', price: 360, amount: 360 });
    expect(q.subtotal).toBe(360);
    const po = await ok(c.call('POST', '/api/purchase_order', c.admin, { doc_date: '2026-11-02', your_company_id: company, supplier_id: await c.make('supplier', { code: c.next('S'), supplier_type: 'juristic', name_th: 'ผู้ขายจำนวน', tax_id: thaiTaxId(745541111), branch_code: '00000' }), items: [{ product_id: plain }] }), 201);
    expect(po.items[0]).toMatchObject({ qty: 1, price: 200, amount: 200 });
  });

  it('a supplier fills the contact, credit term and address of a purchase order and a goods receipt; a customer the delivery\'s address', async () => {
    const supplier = await c.make('supplier', { code: c.next('S'), supplier_type: 'juristic', name_th: 'ผู้ขายเครดิต', tax_id: thaiTaxId(745542222), branch_code: '00000',
      contact_name: 'คุณสมชาย', credit_term_days: 60, address_line: '99 ถนนบางนา-ตราด' });
    const po = await ok(c.call('POST', '/api/purchase_order', c.admin, { doc_date: '2026-11-02', your_company_id: company, supplier_id: supplier, items: [{ product_id: plain, qty: 2 }] }), 201);
    expect(po).toMatchObject({ contact_name: 'คุณสมชาย', credit_term_days: 60, supplier_address: '99 ถนนบางนา-ตราด' });
    // a value sent is kept
    const kept = await ok(c.call('POST', '/api/purchase_order', c.admin, { doc_date: '2026-11-02', your_company_id: company, supplier_id: supplier, contact_name: 'คุณเอ', items: [{ product_id: plain, qty: 1 }] }), 201);
    expect(kept).toMatchObject({ contact_name: 'คุณเอ', credit_term_days: 60 });
    const inventory = await c.inventory(company);
    const gr = await ok(c.call('POST', '/api/goods_receipt', c.admin, { doc_date: '2026-11-02', your_company_id: company, inventory_id: inventory, supplier_id: supplier, items: [{ product_id: plain, qty: 1 }] }), 201);
    expect(gr).toMatchObject({ contact_name: 'คุณสมชาย', supplier_address: '99 ถนนบางนา-ตราด' });
    // the form asks the same: a supplier chosen on a purchase order
    expect(await ok(c.call('POST', '/api/purchase_order/fills', c.admin, { record: { supplier_id: supplier }, changed: 'supplier_id' })))
      .toEqual({ contact_name: 'คุณสมชาย', credit_term_days: 60, supplier_address: '99 ถนนบางนา-ตราด' });
    const addressed = await c.make('customer', { code: c.next('C'), customer_type: 'juristic', name_th: 'ลูกค้ามีที่อยู่', tax_id: thaiTaxId(745543333), branch_code: '00000', address_line: '1 ถนนสุขุมวิท' });
    expect(await ok(c.call('POST', '/api/delivery_order/fills', c.admin, { record: { customer_id: addressed }, changed: 'customer_id' }))).toEqual({ ship_to: '1 ถนนสุขุมวิท' });
  });

  it('without a price list the product\'s selling price; on purchase documents its purchase price', async () => {
    const q = await ok(c.call('POST', '/api/quotation', c.admin, { doc_date: '2026-11-02', your_company_id: company, customer_id: bare, items: [{ product_id: listed, qty: 1 }] }), 201);
    expect(q.items[0]).toMatchObject({ unit: 'ม้วน', price: 360 });
    expect(q.credit_term_days).toBe(30);
    const supplier = await c.make('supplier', { code: c.next('S'), supplier_type: 'juristic', name_th: 'ผู้ขายทดสอบ', tax_id: thaiTaxId(745546666), branch_code: '00000' });
    const po = await ok(c.call('POST', '/api/purchase_order', c.admin, { doc_date: '2026-11-02', your_company_id: company, supplier_id: supplier, items: [{ product_id: listed, qty: 5 }] }), 201);
    expect(po.items[0]).toMatchObject({ unit: 'ม้วน', price: 250 });
  });

  it('the due date follows the date and the credit term, on create and when the date changes', async () => {
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, { doc_date: '2026-11-02', your_company_id: company, customer_id: customer, items: [{ product_id: plain, qty: 1 }] }), 201);
    expect(so).toMatchObject({ credit_term_days: 45, due_date: '2026-12-17' });
    const moved = await ok(c.call('PATCH', `/api/sales_order/${so.id}`, c.admin, { doc_date: '2026-11-10' }));
    expect(moved.due_date).toBe('2026-12-25');
    // a due date sent is kept; a write that touches neither date nor term leaves the due date alone
    const kept = await ok(c.call('PATCH', `/api/sales_order/${so.id}`, c.admin, { doc_date: '2026-11-11', due_date: '2026-11-30' }));
    expect(kept.due_date).toBe('2026-11-30');
    expect((await ok(c.call('PATCH', `/api/sales_order/${so.id}`, c.admin, { remark: 'ส่งด่วน' }))).due_date).toBe('2026-11-30');
    // a due date set by hand no longer follows the date
    expect((await ok(c.call('PATCH', `/api/sales_order/${so.id}`, c.admin, { doc_date: '2026-11-12' }))).due_date).toBe('2026-11-30');
    // a billing note's due date follows the customer's credit term, one link away
    const bn = await ok(c.call('POST', '/api/billing_note', c.admin, { ...c.billingNoteBody(customer, company), bill_date: '2026-11-03', due_date: undefined, total_amount: 100, items: [{ description: 'ค่าสินค้า', amount: 100 }] }), 201);
    expect(bn.due_date).toBe('2026-12-18');
  });

  it('an update that adds a line prices it', async () => {
    const q = await ok(c.call('POST', '/api/quotation', c.admin, { doc_date: '2026-11-02', your_company_id: company, customer_id: customer, items: [{ product_id: plain, qty: 1 }] }), 201);
    const after = await ok(c.call('PATCH', `/api/quotation/${q.id}`, c.admin, { items: [{ id: q.items[0].id, product_id: plain, qty: 1, price: 360 }, { product_id: listed, qty: 10 }] }));
    expect(after.items.map((l: Row) => l.price)).toEqual([360, 320]);
  });

  it('POST /api/<entity>/fills answers what a change fills, for the form', async () => {
    const head = await ok(c.call('POST', '/api/sales_order/fills', c.admin, { record: { doc_date: '2026-11-02', customer_id: customer, contact_name: '', items: [] }, changed: 'customer_id' }));
    expect(head).toEqual({ contact_name: 'คุณวิภา', salesperson_id: salesperson, credit_term_days: 45, due_date: '2026-12-17' });
    const date = await ok(c.call('POST', '/api/sales_order/fills', c.admin, { record: { doc_date: '2026-11-05', customer_id: customer, credit_term_days: 10 }, changed: 'doc_date' }));
    expect(date).toEqual({ due_date: '2026-11-15' });
    const line = await ok(c.call('POST', '/api/quotation/fills', c.admin, { record: { customer_id: customer, items: [{ product_id: plain, qty: 1 }, { product_id: listed, qty: 12, unit: 'x', price: 1 }] }, changed: 'items.1.product_id' }));
    expect(line).toEqual({ 'items.1.unit': 'ม้วน', 'items.1.price': 320 });
    const qty = await ok(c.call('POST', '/api/quotation/fills', c.admin, { record: { customer_id: customer, items: [{ product_id: listed, qty: 3, price: 320 }] }, changed: 'items.0.qty' }));
    expect(qty).toEqual({ 'items.0.price': 340 });
    const bad = await c.call('POST', '/api/quotation/fills', c.admin, { record: [], changed: 1 });
    expect(bad.statusCode).toBe(400);
  });

  it('fills read as the caller: a user who may not read customers gets no customer terms', async () => {
    const clerk = await c.staff('fill_clerk', { sales_order: { view: true, edit: true } });
    const head = await ok(c.call('POST', '/api/sales_order/fills', clerk.headers, { record: { doc_date: '2026-11-02', customer_id: customer }, changed: 'customer_id' }));
    expect(head).toEqual({});
  });

  it('a role that may only view the document gets no fills (403): they serve a record being written', async () => {
    const viewer = await c.staff('fill_viewer', { quotation: { view: true }, customer: { view: true }, product: { view: true } });
    const res = await c.call('POST', '/api/quotation/fills', viewer.headers, { record: { customer_id: customer, items: [{ product_id: listed, qty: 3 }] }, changed: 'items.0.product_id' });
    expect(res.statusCode, res.body).toBe(403);
  });
});
