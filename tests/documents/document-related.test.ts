/**
 * Issue 38 §1: GET /api/{entity}/{id}/related names the documents a document was made from and
 * those made from it (drafts included), and the create-from screens it can open now, all in the
 * caller's scope: a role that may not read a kind of document does not see it listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('document chain links on %s', (dialect) => {
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

  it('links a quotation, the order made from it and the billing note made from that, with the actions each state allows', async () => {
    const draft = await ok(c.call('POST', '/api/quotation', c.admin, { doc_date: '2026-11-20', your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 10, price: 100 }] }), 201);
    // a draft quotation cannot be ordered yet
    const before = await ok(c.call('GET', `/api/quotation/${draft.id}/related`, c.admin));
    expect(before).toEqual({ sources: [], made: [], create: [] });
    const q = await ok(c.call('POST', `/api/quotation/${draft.id}/actions/approve`, c.admin));
    const approved = await ok(c.call('GET', `/api/quotation/${q.id}/related`, c.admin));
    expect(approved.create).toEqual([expect.objectContaining({ target: 'sales_order', source: 'quotation', path: '/sales_order/quotation', href: `/sales_order/quotation?source=${q.id}`, action: { th: 'สร้างใบสั่งขาย', en: 'Create sales order' } })]);

    const so = await ok(c.call('POST', '/api/sales_order/from/quotation', c.admin, { ids: [q.id] }), 201);
    // the draft order is already listed under the quotation
    expect((await ok(c.call('GET', `/api/quotation/${q.id}/related`, c.admin))).made).toEqual([{ entity: 'sales_order', id: so.id, title: so.doc_no, status: 'draft' }]);
    await ok(c.call('POST', `/api/sales_order/${so.id}/actions/approve`, c.admin));
    const order = await ok(c.call('GET', `/api/sales_order/${so.id}/related`, c.admin));
    expect(order.sources).toEqual([{ entity: 'quotation', id: q.id, title: q.doc_no, status: 'ordered' }]);
    expect(order.create.map((s: Row) => s.path).sort()).toEqual(['/billing_note/sales_order', '/delivery_order/sales_order', '/receipt/sales_order', '/tax_invoice/sales_order']);
    expect(order.create.find((s: Row) => s.target === 'receipt').action.th).toBe('รับชำระ');

    const bn = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id] }), 201);
    expect((await ok(c.call('GET', `/api/billing_note/${bn.id}/related`, c.admin))).sources.map((d: Row) => d.id)).toEqual([so.id]);
    expect((await ok(c.call('GET', `/api/sales_order/${so.id}/related`, c.admin))).made).toEqual([{ entity: 'billing_note', id: bn.id, title: expect.stringMatching(/^BN\d{6}-\d{4}$/), status: 'draft' }]);

    // invoiced in full, the order offers no more tax invoices, and still offers what is left (delivery, billing)
    const iv = await ok(c.call('POST', '/api/tax_invoice/from/sales_order', c.admin, { ids: [so.id] }), 201);
    await ok(c.call('POST', `/api/tax_invoice/${iv.id}/actions/issue`, c.admin));
    const invoiced = await ok(c.call('GET', `/api/sales_order/${so.id}/related`, c.admin));
    expect(invoiced.create.map((s: Row) => s.path).sort()).toEqual(['/billing_note/sales_order', '/delivery_order/sales_order', '/receipt/sales_order']);
  });

  it('answers in the caller\'s scope: no view is 403, documents it may not read are left out, no edit offers no action', async () => {
    const q = await ok(c.call('POST', '/api/quotation', c.admin, { doc_date: '2026-11-21', your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 1, price: 50 }] }), 201);
    await ok(c.call('POST', `/api/quotation/${q.id}/actions/approve`, c.admin));
    const so = await ok(c.call('POST', '/api/sales_order/from/quotation', c.admin, { ids: [q.id] }), 201);
    const viewer = await c.staff('rel_viewer', { quotation: { view: true } });
    const seen = await ok(c.call('GET', `/api/quotation/${q.id}/related`, viewer.headers));
    expect(seen).toEqual({ sources: [], made: [], create: [] });
    const seller = await c.staff('rel_seller', { quotation: { view: true }, sales_order: { view: true, edit: true } });
    const theirs = await ok(c.call('GET', `/api/quotation/${q.id}/related`, seller.headers));
    expect(theirs.made.map((d: Row) => d.id)).toEqual([so.id]);
    expect(theirs.create.map((s: Row) => s.target)).toEqual(['sales_order']);
    const none = await c.staff('rel_none', { customer: { view: true } });
    expect((await c.call('GET', `/api/quotation/${q.id}/related`, none.headers)).statusCode).toBe(403);
    expect((await c.call('GET', '/api/quotation/999999/related', c.admin)).statusCode).toBe(404);
  });
});
