/**
 * Issue 31 §4: a document from which live documents were made cannot be
 * cancelled (409 HAS_DEPENDENTS naming them, in Thai too); once they are
 * cancelled it can be. Drafts made from it do not hold it, but cannot be posted
 * after it is cancelled. Amend stays possible.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('cancelling a document with dependents on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let customer: number;
  let product: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    customer = await c.customer();
    product = await c.product();
  });
  afterAll(async () => t?.close());

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const get = async (entity: string, id: number) => ok(c.call('GET', `/api/${entity}/${id}`, c.admin));
  const act = async (entity: string, id: number, action: string) => ok(c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin));
  const cancelTh = (entity: string, id: number) => c.call('POST', `/api/${entity}/${id}/actions/cancel`, { ...c.admin, 'accept-language': 'th' });

  const approvedOrder = async (): Promise<Row> => {
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, {
      doc_date: '2026-11-02', your_company_id: company, customer_id: customer, vat_type: 'exclude',
      items: [{ product_id: product, qty: 10, price: 100 }],
    }), 201);
    await act('sales_order', so.id, 'approve');
    return get('sales_order', so.id);
  };

  it('an issued tax invoice with an issued credit note: 409 naming the note, then cancellable once the note is cancelled, and amendable', async () => {
    const so = await approvedOrder();
    const iv = await ok(c.call('POST', '/api/tax_invoice/from/sales_order', c.admin, { ids: [so.id] }), 201);
    const issued = await act('tax_invoice', iv.id, 'issue');
    const reason = await c.make('return_reason', { code: c.next('RR'), name_th: 'สินค้าชำรุด' });
    const cn = await ok(c.call('POST', '/api/credit_note/from/tax_invoice', c.admin, { ids: [iv.id], lines: [{ source_line_id: iv.items[0].id, amount: 100 }], values: { return_reason_id: reason } }), 201);
    const cnIssued = await act('credit_note', cn.id, 'issue');

    const refused = await cancelTh('tax_invoice', iv.id);
    expectError(refused, 409, 'HAS_DEPENDENTS');
    expect(refused.json().error.details.dependents).toEqual([{ entity: 'credit_note', id: cn.id, number: cnIssued.doc_no }]);
    // the Thai text names the invoice and the note; the form renders the same text from the code and params
    expect(refused.json().error.message).toContain(`ใบลดหนี้ ${cnIssued.doc_no}`);
    expect(refused.json().error.message).toContain(issued.doc_no);
    expect(refused.json().error.message).toMatch(/ยกเลิก.*ไม่ได้/);
    expect((await get('tax_invoice', iv.id)).status).toBe('issued');
    expect((await get('credit_note', cn.id)).status).toBe('issued');

    await act('credit_note', cn.id, 'cancel');
    expect((await act('tax_invoice', iv.id, 'cancel')).status).toBe('cancelled');
    const amended = await ok(c.call('POST', `/api/tax_invoice/${iv.id}/amend`, c.admin), 201);
    expect(amended).toMatchObject({ status: 'draft', amended_from: iv.id });
  });

  it('a sales order with an issued billing note: 409 naming the bill, then cancellable once the bill is cancelled', async () => {
    const so = await approvedOrder();
    const bn = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: so.items[0].id, amount: 400 }] }), 201);
    const bnIssued = await act('billing_note', bn.id, 'issue');

    const refused = await c.call('POST', `/api/sales_order/${so.id}/actions/cancel`, c.admin);
    expectError(refused, 409, 'HAS_DEPENDENTS');
    expect(refused.json().error.details.dependents).toEqual([{ entity: 'billing_note', id: bn.id, number: bnIssued.bill_no }]);
    expect(refused.json().error.message).toContain(bnIssued.bill_no);
    expect((await get('sales_order', so.id)).status).toBe('approved');
    expect((await cancelTh('sales_order', so.id)).json().error.message).toContain(`ใบวางบิล ${bnIssued.bill_no}`);

    await act('billing_note', bn.id, 'cancel');
    expect((await act('sales_order', so.id, 'cancel')).status).toBe('cancelled');
  });

  it('a draft made from a document does not hold it; once the source is cancelled the draft cannot be posted', async () => {
    const so = await approvedOrder();
    const draft = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id] }), 201);
    expect((await act('sales_order', so.id, 'cancel')).status).toBe('cancelled');
    expectError(await c.call('POST', `/api/billing_note/${draft.id}/actions/issue`, c.admin), 409, 'INVALID_TRANSITION');
    expect((await get('billing_note', draft.id)).status).toBe('draft');
  });

  it('a cancel and a posting from it that cross: exactly one passes, never a live document of a cancelled source', async () => {
    for (let round = 0; round < 6; round++) {
      const so = await approvedOrder();
      const issued = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: so.items[0].id, amount: 100 }] }), 201);
      await act('billing_note', issued.id, 'issue');
      const draft = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: so.items[0].id, amount: 100 }] }), 201);
      // the other bill's cancel runs alongside: it locks the same order first, so nothing deadlocks
      const [cancel, issue, other] = await Promise.all([
        c.call('POST', `/api/sales_order/${so.id}/actions/cancel`, c.admin),
        c.call('POST', `/api/billing_note/${draft.id}/actions/issue`, c.admin),
        c.call('POST', `/api/billing_note/${issued.id}/actions/cancel`, c.admin),
      ]);
      expect(other.statusCode, other.body).toBe(200);
      const order = await get('sales_order', so.id);
      const bill = await get('billing_note', draft.id);
      if (order.status === 'cancelled') {
        expect(cancel.statusCode, cancel.body).toBe(200);
        expectError(issue, 409, 'INVALID_TRANSITION');
        expect(bill.status).toBe('draft');
      } else {
        expect(issue.statusCode, issue.body).toBe(200);
        expectError(cancel, 409, 'HAS_DEPENDENTS');
        expect(bill.status).toBe('issued');
      }
    }
  });

  it('a posting that waits on a cancel in progress sees the source cancelled (the cancel holds the order\'s lock)', async () => {
    const so = await approvedOrder();
    const draft = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id] }), 201);
    // the order's cancel pauses after its dependents were checked (none yet), before it commits
    let reached!: () => void;
    const atPause = new Promise<void>((r) => { reached = r; });
    let release!: () => void;
    const paused = new Promise<void>((r) => { release = r; });
    let armed = true;
    t.service.onAction(async (_trx, e) => {
      if (!armed || e.entity.name !== 'sales_order' || e.id !== so.id || e.action !== 'cancel') return;
      armed = false;
      reached();
      await paused;
    });
    const cancel = c.call('POST', `/api/sales_order/${so.id}/actions/cancel`, c.admin);
    await atPause;
    const issue = c.call('POST', `/api/billing_note/${draft.id}/actions/issue`, c.admin);
    await new Promise((r) => setTimeout(r, 300));
    release();
    expect((await cancel).statusCode).toBe(200);
    expectError(await issue, 409, 'INVALID_TRANSITION');
    expect((await get('billing_note', draft.id)).status).toBe('draft');
    expect((await get('sales_order', so.id)).status).toBe('cancelled');
  });

  it('a receipt of a bill holds the bill\'s order through the bill only after both are cancelled in turn', async () => {
    const so = await approvedOrder();
    const bn = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id] }), 201);
    await act('billing_note', bn.id, 'issue');
    const rc = await ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [bn.id], values: { payment_method: 'cash' } }), 201);
    await act('receipt', rc.id, 'post');
    // the paid bill cannot be cancelled (its workflow), and the order is held by the bill
    expectError(await c.call('POST', `/api/sales_order/${so.id}/actions/cancel`, c.admin), 409, 'HAS_DEPENDENTS');
    await act('receipt', rc.id, 'cancel');
    expectError(await c.call('POST', `/api/sales_order/${so.id}/actions/cancel`, c.admin), 409, 'HAS_DEPENDENTS');
    await act('billing_note', bn.id, 'cancel');
    expect((await act('sales_order', so.id, 'cancel')).status).toBe('cancelled');
  });
});
