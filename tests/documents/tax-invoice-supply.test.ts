/**
 * Issue 44 §2 and §3, the auditor's cases through the API: one sale has one tax invoice (a receipt for goods
 * already invoiced is a plain receipt, T01; one for goods with none serves as the tax invoice, and a tax invoice
 * for that sale is then refused); the role is stored at posting; every tax document is in sales_tax_report once;
 * a credit or debit note is made from an issued tax invoice and credits at most what is left of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';
import { setSiteSettings } from '../support/site-settings.ts';
import { businessToday } from '../../engine/documents/business-time.ts';

type Row = Record<string, any>;

describe.each(testDialects())('one tax invoice per supply on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let customer: number;
  let product: number;
  let reason: number;
  // documents made from others take today's date: everything is dated today, and the report is today's month
  const today = businessToday(new Date());
  const month = today.slice(0, 7);
  const th = () => ({ ...c.admin, 'accept-language': 'th' });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    customer = await c.customer();
    product = await c.product();
    reason = (await ok(c.call('POST', '/api/return_reason', c.admin, { code: 'DMG', name_th: 'สินค้าชำรุด', return_side: 'sales' }), 201)).id;
  });
  afterAll(async () => t?.close());

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const act = (entity: string, id: number, action: string) => ok(c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin));
  /** An approved order of 1,000.00 + VAT 70.00. */
  const order = async (): Promise<Row> => {
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, { doc_date: today, your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 4, price: 250 }] }), 201);
    return act('sales_order', so.id, 'approve');
  };
  const from = async (target: string, source: string, id: number, extra: Row = {}) => ok(c.call('POST', `/api/${target}/from/${source}`, c.admin, { ids: [id], ...extra }), 201);
  const typeCode = async (entity: string, id: number) => /<ram:TypeCode>([^<]+)</.exec((await c.call('GET', `/api/${entity}/${id}/etax.xml`, c.admin)).body)?.[1];
  const report = async (): Promise<Row[]> => (await ok(c.call('GET', `/api/report/sales_tax_report?month=${month}&company=${company}&limit=1000`, c.admin))).rows;
  const lineOf = (rows: Row[], no: string) => rows.filter((r) => r.doc_no === no);

  it('a receipt for a sale that already has a tax invoice is a plain receipt (T01) and not in the sales tax report', async () => {
    const so = await order();
    const iv = await act('tax_invoice', (await from('tax_invoice', 'sales_order', so.id)).id, 'issue');
    expect(iv.vat_amount).toBe(70);
    const bn = await act('billing_note', (await from('billing_note', 'sales_order', so.id)).id, 'issue');
    const rc = await act('receipt', (await from('receipt', 'billing_note', bn.id)).id, 'post');
    expect(rc).toMatchObject({ total_amount: 1070, vat_amount: 70, tax_invoice_role: 'none' });
    expect(await typeCode('receipt', rc.id)).toBe('T01');
    expect(await typeCode('tax_invoice', iv.id)).toBe('388');
    const rows = await report();
    expect(lineOf(rows, iv.doc_no)).toHaveLength(1);
    expect(lineOf(rows, rc.doc_no)).toHaveLength(0);
  });

  it('a receipt for a sale with no tax invoice serves as one, is in the report once, and a tax invoice for that sale is then refused', async () => {
    const so = await order();
    const rc = await act('receipt', (await from('receipt', 'sales_order', so.id)).id, 'post');
    expect(rc).toMatchObject({ total_amount: 1070, tax_invoice_role: 'full' });
    expect(await typeCode('receipt', rc.id)).toBe('T03');
    expect(lineOf(await report(), rc.doc_no)).toEqual([expect.objectContaining({ doc_type: 'receipt', amount_before_vat: 1000, vat_amount: 70, total_amount: 1070 })]);
    const draft = await from('tax_invoice', 'sales_order', so.id);
    const res = await c.call('POST', `/api/tax_invoice/${draft.id}/actions/issue`, th());
    expectError(res, 409, 'ALREADY_TAX_INVOICED');
    expect(res.json().error.message).toContain(`ใบเสร็จรับเงิน/ใบกำกับภาษี ${rc.doc_no}`);
    expect((await ok(c.call('GET', `/api/tax_invoice/${draft.id}`, c.admin))).status).toBe('draft');
  });

  it('the role is decided at posting and stored: changing the site setting later retitles no posted receipt', async () => {
    const rc = await act('receipt', (await ok(c.call('POST', '/api/receipt', c.admin, { doc_date: today, your_company_id: company, customer_id: customer, items: [{ description: 'รับชำระ', amount: 535 }] }), 201)).id, 'post');
    expect(rc.tax_invoice_role).toBe('full');
    await setSiteSettings(t.app, c.admin, { tax_invoice: 'abbreviated' });
    try {
      expect((await ok(c.call('GET', `/api/receipt/${rc.id}`, c.admin))).tax_invoice_role).toBe('full');
      expect(await typeCode('receipt', rc.id)).toBe('T03');
      expect(lineOf(await report(), rc.doc_no)).toHaveLength(1);
      // the field is the server's: a client cannot write it
      expectError(await c.call('PATCH', `/api/receipt/${rc.id}`, c.admin, { tax_invoice_role: 'none' }), 400, 'READ_ONLY_FIELD');
    } finally {
      await setSiteSettings(t.app, c.admin, { tax_invoice: 'full' });
    }
  });

  it('a credit note typed by hand is refused at issue with a Thai message; one made from the invoice names it', async () => {
    const typed = await ok(c.call('POST', '/api/credit_note', c.admin, { doc_date: today, your_company_id: company, customer_id: customer, return_reason_id: reason, vat_type: 'exclude', items: [{ description: 'ลดหนี้', amount: 1000000 }] }), 201);
    const res = await c.call('POST', `/api/credit_note/${typed.id}/actions/issue`, th());
    expectError(res, 409, 'NOTE_WITHOUT_INVOICE');
    expect(res.json().error.message).toContain('ไม่ได้อ้างอิงใบกำกับภาษี');
    expect((await ok(c.call('GET', `/api/credit_note/${typed.id}`, c.admin))).status).toBe('draft');
    const debit = await ok(c.call('POST', '/api/debit_note', c.admin, { doc_date: today, your_company_id: company, customer_id: customer, return_reason_id: reason, items: [{ product_id: product, qty: 1, price: 100 }] }), 201);
    expectError(await c.call('POST', `/api/debit_note/${debit.id}/actions/issue`, c.admin), 409, 'NOTE_WITHOUT_INVOICE');

    const so = await order();
    const iv = await act('tax_invoice', (await from('tax_invoice', 'sales_order', so.id)).id, 'issue');
    const cn = await act('credit_note', (await from('credit_note', 'tax_invoice', iv.id, { values: { return_reason_id: reason }, lines: [{ source_line_id: iv.items[0].id, amount: 535 }] })).id, 'issue');
    expect(cn).toMatchObject({ tax_invoice_id: iv.id, total_amount: 535, vat_amount: 35 });
    expect(lineOf(await report(), cn.doc_no)).toEqual([expect.objectContaining({ doc_type: 'credit_note', vat_amount: -35 })]);
    // 1,070.00 less 535.00 leaves 535.00: a draft made for 100.00 and edited to 535.01 is more than is left
    const over = await from('credit_note', 'tax_invoice', iv.id, { values: { return_reason_id: reason }, lines: [{ source_line_id: iv.items[0].id, amount: 100 }] });
    const line = over.items[0];
    await ok(c.call('PATCH', `/api/credit_note/${over.id}`, c.admin, { items: [{ id: line.id, source_line_id: line.source_line_id, description: line.description, amount: 535.01 }] }));
    expectError(await c.call('POST', `/api/credit_note/${over.id}/actions/issue`, c.admin), 409, 'OVER_PROCESSED');
    // two drafts of 535.00 each fit while nothing else is issued; the second to be issued finds nothing left
    const a = await from('credit_note', 'tax_invoice', iv.id, { values: { return_reason_id: reason }, lines: [{ source_line_id: iv.items[0].id, amount: 300 }] });
    const b = await from('credit_note', 'tax_invoice', iv.id, { values: { return_reason_id: reason }, lines: [{ source_line_id: iv.items[0].id, amount: 300 }] });
    await act('credit_note', a.id, 'issue');
    expectError(await c.call('POST', `/api/credit_note/${b.id}/actions/issue`, c.admin), 409, 'OVER_PROCESSED');
  });

  it('a credit note whose lines come from two invoices is refused: one note corrects one invoice', async () => {
    const a = await act('tax_invoice', (await from('tax_invoice', 'sales_order', (await order()).id)).id, 'issue');
    const b = await act('tax_invoice', (await from('tax_invoice', 'sales_order', (await order()).id)).id, 'issue');
    const cn = await ok(c.call('POST', '/api/credit_note/from/tax_invoice', c.admin, { ids: [a.id, b.id], values: { return_reason_id: reason } }), 201);
    const res = await c.call('POST', `/api/credit_note/${cn.id}/actions/issue`, th());
    expectError(res, 409, 'NOTE_WITHOUT_INVOICE');
    expect(res.json().error.message).toContain('2 ใบ');
  });
});
