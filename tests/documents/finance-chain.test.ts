/**
 * Issue 9, the finance chain on the real schemas: quotation → sales order →
 * partial billing note → partial receipt → tax invoice, with over-billing
 * refused, a cancelled receipt reopening its billing note, posted documents
 * locked and statuses that no plain write sets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('finance chain on %s', (dialect) => {
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
  const get = async (entity: string, id: number) => ok(c.call('GET', `/api/${entity}/${id}`, c.admin));
  const act = async (entity: string, id: number, action: string) => ok(c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin));

  /** An approved order of 10 × 1,000 and 4 × 250 (11,000 before VAT), made from part of a quotation. */
  const salesOrder = async (): Promise<Row> => {
    const q = await ok(c.call('POST', '/api/quotation', c.admin, {
      doc_date: '2026-11-02', your_company_id: company, customer_id: customer, vat_type: 'exclude',
      items: [{ product_id: products[0], qty: 20, price: 1000 }, { product_id: products[1], qty: 4, price: 250 }],
    }), 201);
    await act('quotation', q.id, 'approve');
    const so = await ok(c.call('POST', '/api/sales_order/from/quotation', c.admin, { ids: [q.id], lines: [{ source_line_id: q.items[0].id, qty: 10 }, { source_line_id: q.items[1].id, qty: 4 }] }), 201);
    await act('sales_order', so.id, 'approve');
    expect((await get('quotation', q.id)).status).toBe('partially_ordered');
    return get('sales_order', so.id);
  };

  // issue 31: a line's amount is its part of the order's total, VAT included (line 1 holds 10,700 of 11,770)
  it('bills part of an order by amount, refuses over-billing naming the line, and the totals carry the order\'s VAT', async () => {
    const so = await salesOrder();
    const bn = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: so.items[0].id, amount: 6420 }] }), 201);
    expect(bn).toMatchObject({ customer_id: customer, your_company_id: company, vat_type: 'exclude', status: 'draft', subtotal: 6420, amount_before_vat: 6000, vat_amount: 420, total_amount: 6420 });
    expect(bn.bill_no).toMatch(/^BN\d{6}-\d{4}$/);
    expect(bn.items).toEqual([expect.objectContaining({ amount: 6420, source_line_id: so.items[0].id })]);
    await act('billing_note', bn.id, 'issue');
    // the order's status is the tax invoices' business: billing leaves it alone
    expect((await get('sales_order', so.id)).status).toBe('approved');

    // 4,280 is left on line 1: asking 4,280.01 is refused at create, and two drafts that together exceed it at posting
    const over = await c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: so.items[0].id, amount: 4280.01 }] });
    expectError(over, 409, 'OVER_PROCESSED');
    expect(over.json().error.details).toMatchObject({ source_line_id: so.items[0].id, remaining: 4280 });
    const a = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: so.items[0].id, amount: 3210 }] }), 201);
    const b = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: so.items[0].id, amount: 3210 }] }), 201);
    await act('billing_note', a.id, 'issue');
    const refused = await c.call('POST', `/api/billing_note/${b.id}/actions/issue`, c.admin);
    expectError(refused, 409, 'OVER_PROCESSED');
    expect(refused.json().error.details).toMatchObject({ line: 'items.0', remaining: 1070, asked: 3210 });
    expect((await get('billing_note', b.id)).status).toBe('draft');
    // what is still open is exactly what the rest takes
    const rest = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id] }), 201);
    expect(rest.items.map((l: Row) => l.amount)).toEqual([1070, 1070]);
  });

  it('receives part of a bill, then the rest; cancelling a receipt reopens the bill', async () => {
    const so = await salesOrder();
    const bn = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id] }), 201);
    expect(bn.total_amount).toBe(11770);
    await act('billing_note', bn.id, 'issue');
    const r1 = await ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [bn.id], lines: [{ source_line_id: bn.items[0].id, amount: 5350 }] }), 201);
    expect(r1).toMatchObject({ status: 'draft', payment_method: 'cash', subtotal: 5350, vat_amount: 350, total_amount: 5350 });
    expect(r1.items[0]).toMatchObject({ source_entity: 'billing_note', source_line_id: bn.items[0].id, amount: 5350 });
    await act('receipt', r1.id, 'post');
    expect((await get('billing_note', bn.id)).status).toBe('partially_paid');
    // what the create-from screen shows: what is left on each line
    const open = await ok(c.call('GET', `/api/receipt/from/billing_note?ids=${bn.id}`, c.admin));
    expect(open.map((l: Row) => [l.source_line_id, l.ordered, l.done, l.remaining, l.measure, l.document_no])).toEqual([
      [bn.items[0].id, 10700, 5350, 5350, 'amount', bn.bill_no], [bn.items[1].id, 1070, 0, 1070, 'amount', bn.bill_no],
    ]);
    expectError(await c.call('GET', '/api/receipt/from/billing_note?ids=x', c.admin), 400, 'INVALID_QUERY');
    const r2 = await ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [bn.id] }), 201);
    expect(r2.items.map((l: Row) => l.amount)).toEqual([5350, 1070]);
    await act('receipt', r2.id, 'post');
    expect((await get('billing_note', bn.id)).status).toBe('paid');
    // a paid bill cannot be cancelled: its receipts are cancelled first
    expectError(await c.call('POST', `/api/billing_note/${bn.id}/actions/cancel`, c.admin), 409, 'INVALID_TRANSITION');
    await act('receipt', r2.id, 'cancel');
    expect((await get('billing_note', bn.id)).status).toBe('partially_paid');
    await act('receipt', r1.id, 'cancel');
    expect((await get('billing_note', bn.id)).status).toBe('issued');
    expectError(await c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [bn.id], lines: [{ source_line_id: bn.items[1].id, amount: 1070.01 }] }), 409, 'OVER_PROCESSED');
  });

  it('a receipt is also made straight from a sales order; a cheque needs its bank, number and date', async () => {
    const so = await salesOrder();
    const body = { ids: [so.id], lines: [{ source_line_id: so.items[1].id, amount: 400 }] };
    const r = await ok(c.call('POST', '/api/receipt/from/sales_order', c.admin, body), 201);
    expect(r.items[0]).toMatchObject({ source_entity: 'sales_order', amount: 400 });
    const cheque = await c.call('PATCH', `/api/receipt/${r.id}`, c.admin, { payment_method: 'cheque' });
    expectError(cheque, 400, 'VALIDATION_FAILED');
    expect(cheque.json().error.details.fields.map((f: Row) => f.field).sort()).toEqual(['bank_name', 'payment_date', 'payment_ref']);
    await ok(c.call('PATCH', `/api/receipt/${r.id}`, c.admin, { payment_method: 'cheque', bank_name: 'ธนาคารกรุงเทพ', payment_ref: '0012345', payment_date: '2026-11-30' }));
    await act('receipt', r.id, 'post');
    expect((await get('sales_order', so.id)).status).toBe('approved');
    expectError(await c.call('POST', '/api/receipt/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: so.items[1].id, amount: 670.01 }] }), 409, 'OVER_PROCESSED');
  });

  it('a posted document refuses edits, and no plain write sets a status', async () => {
    const so = await salesOrder();
    const bn = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id] }), 201);
    expectError(await c.call('PATCH', `/api/billing_note/${bn.id}`, c.admin, { status: 'paid' }), 400, 'READ_ONLY_FIELD');
    // totals are the lines': a draft's total cannot be set apart from them
    expectError(await c.call('PATCH', `/api/billing_note/${bn.id}`, c.admin, { total_amount: 1 }), 400, 'VALIDATION_FAILED');
    await act('billing_note', bn.id, 'issue');
    const locked = await c.call('PATCH', `/api/billing_note/${bn.id}`, c.admin, { items: [{ description: 'x', amount: 1 }] });
    expectError(locked, 409, 'DOCUMENT_LOCKED');
    const r = await ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [bn.id] }), 201);
    expectError(await c.call('PATCH', `/api/receipt/${r.id}`, c.admin, { status: 'posted' }), 400, 'READ_ONLY_FIELD');
    await act('receipt', r.id, 'post');
    expectError(await c.call('PATCH', `/api/receipt/${r.id}`, c.admin, { payment_method: 'transfer' }), 409, 'DOCUMENT_LOCKED');
    expectError(await c.call('DELETE', `/api/receipt/${r.id}`, c.admin), 409, 'DOCUMENT_LOCKED');
  });

  it('a tax invoice follows, and credit and debit notes go against it within what it holds', async () => {
    const so = await salesOrder();
    const iv = await ok(c.call('POST', '/api/tax_invoice/from/sales_order', c.admin, { ids: [so.id] }), 201);
    const issued = await act('tax_invoice', iv.id, 'issue');
    expect(issued.doc_no).toMatch(/^CO\d+-IV\d{6}-\d{4}$/); // the issuing company's code leads its own series
    // invoicing bills the order but delivers nothing: it stays in progress until delivered (issue 31 §6)
    expect(await get('sales_order', so.id)).toMatchObject({ status: 'in_progress', billing_status: 'billed', delivery_status: 'not_delivered' });
    const reason = await c.make('return_reason', { code: c.next('RR'), name_th: 'สินค้าชำรุด' });
    const noReason = await c.call('POST', '/api/credit_note/from/tax_invoice', c.admin, { ids: [iv.id], lines: [{ source_line_id: iv.items[0].id, amount: 1000 }] });
    expectError(noReason, 400, 'VALIDATION_FAILED');
    expect(noReason.json().error.details.fields.map((f: Row) => f.field)).toContain('return_reason_id');
    const cn = await ok(c.call('POST', '/api/credit_note/from/tax_invoice', c.admin, { ids: [iv.id], lines: [{ source_line_id: iv.items[0].id, amount: 1070 }], values: { return_reason_id: reason } }), 201);
    expect(cn).toMatchObject({ subtotal: 1070, amount_before_vat: 1000, vat_amount: 70, total_amount: 1070, return_reason_id: reason });
    await act('credit_note', cn.id, 'issue');
    const over = await c.call('POST', '/api/credit_note/from/tax_invoice', c.admin, { ids: [iv.id], lines: [{ source_line_id: iv.items[0].id, amount: 9630.01 }], values: { return_reason_id: reason } });
    expectError(over, 409, 'OVER_PROCESSED');
    expect(over.json().error.details.remaining).toBe(9630);
    const dn = await ok(c.call('POST', '/api/debit_note/from/tax_invoice', c.admin, { ids: [iv.id], lines: [{ source_line_id: iv.items[1].id, qty: 4 }], values: { return_reason_id: reason } }), 201);
    expect(dn.items[0]).toMatchObject({ qty: 4, price: 250, amount: 1000 });
    const dn2 = await ok(c.call('PATCH', `/api/debit_note/${dn.id}`, c.admin, { items: [{ id: dn.items[0].id, product_id: products[1], qty: 4, price: 12.5, source_line_id: iv.items[1].id }] }));
    expect(dn2).toMatchObject({ subtotal: 50, vat_amount: 3.5, total_amount: 53.5 });
    await act('debit_note', dn.id, 'issue');
    expectError(await c.call('POST', '/api/debit_note/from/tax_invoice', c.admin, { ids: [iv.id], lines: [{ source_line_id: iv.items[1].id, qty: 5 }], values: { return_reason_id: reason } }), 409, 'OVER_PROCESSED');
  });
});
