/**
 * Issue 44 §4: a document made from another is not dated before it (400 naming the date field), and a company's
 * `books_closed_until` makes its documents dated on or before it final (409 PERIOD_CLOSED naming the date);
 * only a role with edit on your_company changes the date.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('document dates and closed books on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let other: number;
  let customer: number;
  let product: number;
  let reason: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    other = await c.company();
    customer = await c.customer();
    product = await c.product();
    reason = await c.make('return_reason', { code: c.next('RR'), name_th: 'สินค้าชำรุด' });
  });
  afterAll(async () => t?.close());

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const fail = async (p: Promise<any>, status: number, code: string): Promise<Row> => {
    const res = await p;
    expectError(res, status, code);
    return res.json();
  };
  const thai = () => ({ ...c.admin, 'accept-language': 'th' });
  const act = (entity: string, id: number, action: string, headers = c.admin) => c.call('POST', `/api/${entity}/${id}/actions/${action}`, headers);
  const from = (target: string, source: string, ids: number[], values: Row = {}) => c.call('POST', `/api/${target}/from/${source}`, c.admin, { ids, values });
  const order = async (date: string, co = company): Promise<Row> => {
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, {
      doc_date: date, your_company_id: co, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 1, price: 1000 }],
    }), 201);
    await ok(act('sales_order', so.id, 'approve'));
    return so;
  };
  const invoice = async (so: Row, date: string): Promise<Row> => {
    const iv = await ok(from('tax_invoice', 'sales_order', [so.id], { doc_date: date }), 201);
    await ok(act('tax_invoice', iv.id, 'issue'));
    return iv;
  };

  it('a receipt or a credit note is not dated before the document it is made from', async () => {
    const so = await order('2026-10-10');
    const early = await fail(from('receipt', 'sales_order', [so.id], { doc_date: '2026-10-05' }), 400, 'VALIDATION_FAILED');
    expect(early.error.details.fields).toEqual([expect.objectContaining({ field: 'doc_date', code: 'before_source', params: expect.objectContaining({ date: '2026-10-10' }) })]);
    const iv = await invoice(so, '2026-10-15');
    const cn = await fail(c.call('POST', '/api/credit_note/from/tax_invoice', thai(), { ids: [iv.id], values: { doc_date: '2026-10-12', return_reason_id: reason } }), 400, 'VALIDATION_FAILED');
    expect(cn.error.details.fields[0]).toMatchObject({ field: 'doc_date', code: 'before_source' });
    // a draft moved before its source after it was made is refused when it is posted
    const rc = await ok(from('receipt', 'sales_order', [so.id], { doc_date: '2026-10-16' }), 201);
    await ok(c.call('PATCH', `/api/receipt/${rc.id}`, c.admin, { doc_date: '2026-10-09' }));
    const posted = await fail(act('receipt', rc.id, 'post'), 400, 'VALIDATION_FAILED');
    expect(posted.error.details.fields[0]).toMatchObject({ field: 'doc_date', code: 'before_source' });
  });

  it('only a role with edit on your_company closes the books', async () => {
    const viewer = await c.staff('books-viewer', { your_company: { view: true } }, { company: [company] });
    await fail(c.call('PATCH', `/api/your_company/${company}`, viewer.headers, { books_closed_until: '2026-10-31' }), 403, 'FORBIDDEN');
    expect((await ok(c.call('GET', `/api/your_company/${company}`, c.admin))).books_closed_until ?? null).toBeNull();
  });

  it('documents dated on or before books_closed_until are not issued, posted, cancelled, edited or amended', async () => {
    const so = await order('2026-10-01');
    const iv = await invoice(so, '2026-10-15');
    const so2 = await order('2026-10-02');
    const amendable = await invoice(so2, '2026-10-16');
    await ok(act('tax_invoice', amendable.id, 'cancel'));
    const so3 = await order('2026-10-03');
    const draft = await ok(from('tax_invoice', 'sales_order', [so3.id], { doc_date: '2026-10-20' }), 201);
    // the other company's books stay open
    const theirs = await order('2026-10-04', other);
    await ok(c.call('PATCH', `/api/your_company/${company}`, c.admin, { books_closed_until: '2026-10-31' }));

    const cancel = await fail(act('tax_invoice', iv.id, 'cancel', thai()), 409, 'PERIOD_CLOSED');
    expect(cancel.error.message).toContain('2026-10-31');
    expect(cancel.error.message).toMatch(/ปิด/);
    expect(cancel.error.details).toMatchObject({ field: 'doc_date', date: '2026-10-15', books_closed_until: '2026-10-31' });
    await fail(act('tax_invoice', draft.id, 'issue'), 409, 'PERIOD_CLOSED');
    await fail(c.call('PATCH', `/api/tax_invoice/${iv.id}`, c.admin, { remark: 'แก้ไขย้อนหลัง' }), 409, 'PERIOD_CLOSED');
    await fail(c.call('POST', `/api/tax_invoice/${amendable.id}/amend`, c.admin), 409, 'PERIOD_CLOSED');
    await fail(act('sales_order', so3.id, 'close'), 409, 'PERIOD_CLOSED');
    // the invoice stays issued: nothing of the refused actions was written
    expect((await ok(c.call('GET', `/api/tax_invoice/${iv.id}`, c.admin))).status).toBe('issued');
    // a credit note dated in the open period may still correct the invoice
    const cn = await ok(c.call('POST', '/api/credit_note/from/tax_invoice', c.admin, { ids: [iv.id], lines: [{ source_line_id: iv.items[0].id, amount: 107 }], values: { doc_date: '2026-11-02', return_reason_id: reason } }), 201);
    await ok(act('credit_note', cn.id, 'issue'));
    // a draft moved into the closed period is refused when it is issued
    const late = await ok(from('credit_note', 'tax_invoice', [iv.id], { doc_date: '2026-11-02', return_reason_id: reason }), 201);
    await ok(c.call('PATCH', `/api/credit_note/${late.id}`, c.admin, { doc_date: '2026-10-31' }));
    await fail(act('credit_note', late.id, 'issue'), 409, 'PERIOD_CLOSED');
    await invoice(theirs, '2026-10-20');
    // re-opening the period (by a role that may) lets the invoice be cancelled once its credit note is
    await ok(act('credit_note', cn.id, 'cancel'));
    await ok(c.call('PATCH', `/api/your_company/${company}`, c.admin, { books_closed_until: null }));
    await ok(act('tax_invoice', iv.id, 'cancel'));
  });
});
