/**
 * Issue 32, "the purchase side of the tax month": the supplier's tax invoice as received
 * (purchase_invoice) is a document of the engine like every other one: typed by hand or made from
 * goods receipts or purchase orders, priced with the document arithmetic (VAT, WHT), numbered,
 * posted with `approve`, cancelled with `cancel`, and listed under purchasing. Nothing here is
 * code of its own: schemas/purchase_invoice.json declares it all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('purchase invoice on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let supplier: number;
  let inventory: number;
  let products: number[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    supplier = await c.supplier();
    inventory = await c.inventory(company);
    products = [await c.product(), await c.product()];
  });
  afterAll(async () => t?.close());

  const from = (source: string, body: Row) => c.ok(c.call('POST', `/api/purchase_invoice/from/${source}`, c.admin, body), 201);
  const header = (extra: Row = {}) => ({ supplier_id: supplier, your_company_id: company, supplier_invoice_no: c.next('INV-'), supplier_invoice_date: '2026-11-05', ...extra });

  it('a standalone invoice computes VAT and WHT, is numbered PI…, posts with approve and is locked', async () => {
    const pi = await c.ok(c.call('POST', '/api/purchase_invoice', c.admin, {
      ...header(), doc_date: '2026-11-06', vat_type: 'exclude', wht_rate: 3,
      items: [{ product_id: products[0], qty: 2, price: 1250.25 }, { description: 'ค่าขนส่ง', qty: 1, price: 100 }],
    }), 201);
    // 2 × 1,250.25 + 100 = 2,600.50; VAT 7 % = 182.035 → 182.04; WHT 3 % of 2,600.50 = 78.015 → 78.02
    expect(pi).toMatchObject({ status: 'draft', subtotal: 2600.5, amount_before_vat: 2600.5, vat_amount: 182.04, total_amount: 2782.54, wht_amount: 78.02, net_amount: 2704.52 });
    expect(pi.doc_no).toMatch(/^PI202611-\d{4}$/);
    const posted = await c.ok(c.action('purchase_invoice', pi.id, 'approve'));
    expect(posted.status).toBe('approved');
    expectError(await c.call('PATCH', `/api/purchase_invoice/${pi.id}`, c.admin, { supplier_invoice_no: 'X' }), 409, 'DOCUMENT_LOCKED');
    const cancelled = await c.ok(c.action('purchase_invoice', pi.id, 'cancel'));
    expect(cancelled.status).toBe('cancelled');
  });

  it('is posted only with the supplier\'s invoice number and date (the tax report files by them); a draft may wait for them', async () => {
    const draft = await c.ok(c.call('POST', '/api/purchase_invoice', c.admin, { supplier_id: supplier, your_company_id: company, items: [{ product_id: products[0], qty: 1, price: 10 }] }), 201);
    const res = await c.action('purchase_invoice', draft.id, 'approve');
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body).toMatch(/supplier_invoice_no|supplier_invoice_date/);
  });

  it('is claimed in the month it is recorded: the supplier\'s invoice may not be dated after it, nor more than 6 months before its month (s. 82/3)', async () => {
    const typed = (extra: Row) => c.call('POST', '/api/purchase_invoice', { ...c.admin, 'accept-language': 'th' }, { ...header(), items: [{ description: 'ค่าบริการ', qty: 1, price: 100 }], ...extra });
    const field = (res: { json(): any }) => res.json().error.details.fields.find((f: Row) => f.field === 'supplier_invoice_date');
    const after = await typed({ doc_date: '2026-11-10', supplier_invoice_date: '2026-11-11' });
    expectError(after, 400, 'VALIDATION_FAILED');
    expect(field(after)).toMatchObject({ code: 'after_recorded', message: 'ต้องไม่หลังวันที่บันทึก 2026-11-10 (ภาษีซื้อใช้สิทธิในเดือนที่บันทึก)' });
    // a tax invoice of May may be claimed up to November; one of April may not
    const late = await typed({ doc_date: '2026-11-28', supplier_invoice_date: '2026-04-30' });
    expectError(late, 400, 'VALIDATION_FAILED');
    expect(field(late).code).toBe('claim_window_passed');
    expect(field(late).message).toContain('มาตรา 82/3');
    const inTime = await c.ok(typed({ doc_date: '2026-11-28', supplier_invoice_date: '2026-05-01' }), 201);
    // an edit is judged with the dates the record has then
    const draft = await c.ok(c.call('POST', '/api/purchase_invoice', c.admin, { supplier_id: supplier, your_company_id: company, doc_date: '2026-11-10', items: [{ description: 'ค่าบริการ', qty: 1, price: 100 }] }), 201);
    const patched = await c.call('PATCH', `/api/purchase_invoice/${draft.id}`, c.admin, { supplier_invoice_no: c.next('INV-'), supplier_invoice_date: '2026-11-11' });
    expectError(patched, 400, 'VALIDATION_FAILED');
    expect(field(patched).code).toBe('after_recorded');
    const moved = await c.call('PATCH', `/api/purchase_invoice/${inTime.id}`, c.admin, { doc_date: '2026-12-01' });
    expectError(moved, 400, 'VALIDATION_FAILED');
    expect((await c.ok(c.action('purchase_invoice', inTime.id, 'approve'))).status).toBe('approved');
  });

  it('is made from a goods receipt, which it then holds, and never takes more than was received', async () => {
    const gr = await c.receive(inventory, [{ product_id: products[0]!, qty: 10, price: 50 }, { product_id: products[1]!, qty: 4, price: 20 }], { supplier_id: supplier, your_company_id: company });
    const pi = await from('goods_receipt', { ids: [gr.id], lines: [{ source_line_id: gr.items[0].id, qty: 6 }], values: header() });
    expect(pi).toMatchObject({ supplier_id: supplier, status: 'draft', amount_before_vat: 300, vat_amount: 21, total_amount: 321 });
    expect(pi.items).toHaveLength(1);
    expect(pi.items[0]).toMatchObject({ product_id: products[0], qty: 6, price: 50, source_line_id: gr.items[0].id, source_entity: 'goods_receipt' });
    await c.ok(c.action('purchase_invoice', pi.id, 'approve'));
    // the rest of the receipt: 4 of line 1, all of line 2
    const rest = await from('goods_receipt', { ids: [gr.id], values: header() });
    expect(rest.items.map((l: Row) => [l.product_id, l.qty])).toEqual([[products[0], 4], [products[1], 4]]);
    // a draft asking 5 of what has 4 left is refused when it is posted
    const over = await c.ok(c.call('PATCH', `/api/purchase_invoice/${rest.id}`, c.admin, {
      items: rest.items.map((l: Row, i: number) => ({ id: l.id, product_id: l.product_id, price: l.price, source_line_id: l.source_line_id, source_entity: l.source_entity, qty: i === 0 ? 5 : l.qty })),
    }));
    expectError(await c.action('purchase_invoice', over.id, 'approve'), 409, 'OVER_PROCESSED');
    // the receipt may not be cancelled while a posted invoice holds it
    expectError(await c.action('goods_receipt', gr.id, 'cancel'), 409, 'HAS_DEPENDENTS');
  });

  it('is made from a purchase order, carrying its VAT type and WHT, and leaves the order\'s receiving status alone', async () => {
    const po = await c.ok(c.call('POST', '/api/purchase_order', c.admin, {
      supplier_id: supplier, your_company_id: company, vat_type: 'include', wht_rate: 1, items: [{ product_id: products[1], qty: 3, price: 107 }],
    }), 201);
    await c.ok(c.action('purchase_order', po.id, 'approve'));
    const pi = await from('purchase_order', { ids: [po.id], values: header() });
    // 321.00 VAT included: VAT 21.00, before 300.00, WHT 1 % = 3.00
    expect(pi).toMatchObject({ vat_type: 'include', wht_rate: 1, amount_before_vat: 300, vat_amount: 21, total_amount: 321, wht_amount: 3 });
    await c.ok(c.action('purchase_invoice', pi.id, 'approve'));
    expect((await c.ok(c.call('GET', `/api/purchase_order/${po.id}`, c.admin))).status).toBe('approved');
  });

  it('prints as a PDF from its form, like every document', async () => {
    const pi = await c.ok(c.call('POST', '/api/purchase_invoice', c.admin, { ...header(), items: [{ product_id: products[0], qty: 1, price: 100 }] }), 201);
    const pdf = await c.call('GET', `/api/purchase_invoice/${pi.id}/pdf`, c.admin);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('is in the purchasing menu with its create-from screens, for whoever may view it', async () => {
    const paths = async (h: Record<string, string>) => ((await c.call('GET', '/api/menu', h)).json().data as { key: string; submenu: { path: string }[] }[])
      .filter((g) => g.key === 'purchasing_stock').flatMap((g) => g.submenu.map((s) => s.path));
    expect(await paths(c.admin)).toEqual(expect.arrayContaining(['/purchase_invoice', '/purchase_invoice/goods_receipt', '/purchase_invoice/purchase_order']));
    const clerk = await c.staff('pi_clerk', { purchase_invoice: { view: true } });
    expect(await paths(clerk.headers)).toContain('/purchase_invoice');
    const other = await c.staff('pi_other', { goods_receipt: { view: true } });
    expect(await paths(other.headers)).not.toContain('/purchase_invoice');
    expectError(await c.call('GET', '/api/purchase_invoice', other.headers), 403, 'FORBIDDEN');
  });
});
