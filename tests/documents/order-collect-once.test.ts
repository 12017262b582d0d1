/**
 * Issue 44 §1 and §5: what a sales order can still collect is one figure, whatever the path (receipts straight
 * from it, its bills and their receipts, bills of its tax invoices); a bill line naming a tax invoice takes at
 * most what is left of it and holds it against cancel; billing from tax invoices is a create-from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';
import { saleBalance } from '../../server/documents/sale-balance.ts';

type Row = Record<string, any>;

describe.each(testDialects())('one figure to collect per order on %s', (dialect) => {
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
  const fail = async (p: Promise<any>, status: number, code: string): Promise<Row> => {
    const res = await p;
    expectError(res, status, code);
    return res.json();
  };
  const act = (entity: string, id: number, action: string) => c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin);
  const from = (target: string, source: string, ids: number[], values: Row = {}) => c.call('POST', `/api/${target}/from/${source}`, c.admin, { ids, values });

  /** An approved order of 1,070.00 (1,000 + VAT 7 %). */
  const order = async (): Promise<Row> => {
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, {
      doc_date: '2026-11-02', your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 2, price: 500 }],
    }), 201);
    expect(so.total_amount).toBe(1070);
    await ok(act('sales_order', so.id, 'approve'));
    return so;
  };
  const balance = (id: number) => saleBalance(t.service.db.kysely, t.service, 'sales_order', id);

  it('received straight from the order, it has nothing left to bill, and a bill made before is refused at issue', async () => {
    const so = await order();
    const early = await ok(from('billing_note', 'sales_order', [so.id], { bill_date: '2026-11-02' }), 201);
    const rc = await ok(from('receipt', 'sales_order', [so.id], { doc_date: '2026-11-03', payment_method: 'cash' }), 201);
    await ok(act('receipt', rc.id, 'post'));
    expect(await balance(so.id)).toEqual({ total: 107000, claimed: 107000, received: 107000, open: 0, due: 0 });
    await fail(from('billing_note', 'sales_order', [so.id], { bill_date: '2026-11-02' }), 409, 'OVER_PROCESSED');
    // the bill drafted before the receipt posted: issuing it would ask for the money again
    await fail(act('billing_note', early.id, 'issue'), 409, 'OVER_PROCESSED');
  });

  it('billed and paid through the bill, a receipt straight from the order is refused at create and at posting', async () => {
    const so = await order();
    const drafted = await ok(from('receipt', 'sales_order', [so.id], { doc_date: '2026-11-05', payment_method: 'cash' }), 201);
    const bn = await ok(from('billing_note', 'sales_order', [so.id], { bill_date: '2026-11-02' }), 201);
    await ok(act('billing_note', bn.id, 'issue'));
    const paid = await ok(from('receipt', 'billing_note', [bn.id], { doc_date: '2026-11-05', payment_method: 'cash' }), 201);
    await ok(act('receipt', paid.id, 'post'));
    expect(await balance(so.id)).toMatchObject({ claimed: 107000, received: 107000, due: 0 });
    await fail(from('receipt', 'sales_order', [so.id]), 409, 'OVER_PROCESSED');
    await fail(act('receipt', drafted.id, 'post'), 409, 'OVER_PROCESSED');
    // cancelling the bill's receipt and the bill gives the order its figure back
    await ok(act('receipt', paid.id, 'cancel'));
    await ok(act('billing_note', bn.id, 'cancel'));
    expect(await balance(so.id)).toMatchObject({ claimed: 0, received: 0, open: 107000 });
    await ok(act('receipt', drafted.id, 'post'));
  });

  it('part straight, the rest through a bill: the bill takes only what is left', async () => {
    const so = await order();
    const line = so.items[0].id;
    const rc = await ok(c.call('POST', '/api/receipt/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: line, amount: 400 }], values: { doc_date: '2026-11-07' } }), 201);
    await ok(act('receipt', rc.id, 'post'));
    const open = await ok(c.call('GET', `/api/billing_note/from/sales_order?ids=${so.id}`, c.admin));
    expect(open[0]).toMatchObject({ ordered: 1070, done: 400, remaining: 670 });
    const bn = await ok(from('billing_note', 'sales_order', [so.id], { bill_date: '2026-11-02' }), 201);
    expect(bn.total_amount).toBe(670);
    await ok(act('billing_note', bn.id, 'issue'));
    expect(await balance(so.id)).toMatchObject({ claimed: 107000, received: 40000, due: 67000 });
  });

  it('a bill of the order\'s tax invoice counts against the order; a bill line naming the invoice bills at most what is left and holds it', async () => {
    const so = await order();
    const iv = await ok(from('tax_invoice', 'sales_order', [so.id], { doc_date: '2026-11-04' }), 201);
    await ok(act('tax_invoice', iv.id, 'issue'));
    // the create-from is declared in the billing note's schema and listed among its sources
    const bn = await ok(from('billing_note', 'tax_invoice', [iv.id], { bill_date: '2026-11-05' }), 201);
    expect(bn.items).toEqual([expect.objectContaining({ source_entity: 'tax_invoice', tax_invoice_id: iv.id, amount: 1070 })]);
    await ok(act('billing_note', bn.id, 'issue'));
    expect(await balance(so.id)).toMatchObject({ claimed: 107000, open: 0 });
    // the order has nothing left to receive straight, and the invoice nothing left to bill
    await fail(from('receipt', 'sales_order', [so.id]), 409, 'OVER_PROCESSED');
    const typed = await ok(c.call('POST', '/api/billing_note', c.admin, {
      bill_date: '2026-11-06', your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ tax_invoice_id: iv.id, description: 'วางบิลซ้ำ', amount: 5000 }],
    }), 201);
    await fail(act('billing_note', typed.id, 'issue'), 409, 'OVER_PROCESSED');
    // the issued bill holds the invoice against cancel
    const res = await fail(act('tax_invoice', iv.id, 'cancel'), 409, 'HAS_DEPENDENTS');
    expect(res.error.message).toContain(bn.bill_no);
    // paid through the bill: the order's money is in
    const rc = await ok(from('receipt', 'billing_note', [bn.id], { doc_date: '2026-11-07' }), 201);
    await ok(act('receipt', rc.id, 'post'));
    expect(await balance(so.id)).toMatchObject({ received: 107000, due: 0 });
  });

  it('a hand-typed bill line naming an invoice beyond what is left is refused at issue', async () => {
    const so = await order();
    const iv = await ok(from('tax_invoice', 'sales_order', [so.id], { doc_date: '2026-11-04' }), 201);
    await ok(act('tax_invoice', iv.id, 'issue'));
    const typed = await ok(c.call('POST', '/api/billing_note', c.admin, {
      bill_date: '2026-11-06', your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ tax_invoice_id: iv.id, description: 'วางบิล', amount: 5000 }],
    }), 201);
    const res = await fail(act('billing_note', typed.id, 'issue'), 409, 'OVER_PROCESSED');
    expect(res.error.details).toMatchObject({ remaining: 1070 });
    const fits = await ok(c.call('POST', '/api/billing_note', c.admin, {
      bill_date: '2026-11-06', your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ tax_invoice_id: iv.id, description: 'วางบิล', amount: 1070 }],
    }), 201);
    await ok(act('billing_note', fits.id, 'issue'));
    await fail(act('tax_invoice', iv.id, 'cancel'), 409, 'HAS_DEPENDENTS');
  });
});
