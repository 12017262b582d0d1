/**
 * Tax invoices are numbered when issued, consecutively and with no gaps:
 * drafts hold no number, a deleted draft leaves no hole, an issue that fails
 * gives its number back, and parallel issues take consecutive numbers. The
 * buyer's and seller's tax details are copied onto the invoice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';

type Row = Record<string, any>;
const seqOf = (no: string) => Number(no.split('-').pop());

describe.each(testDialects())('tax invoice numbering on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let customer: number;
  let product: number;

  const realNow = businessClock.now;
  beforeAll(async () => {
    // the day the drafts are dated: a tax invoice may not be dated after the day it is issued, nor before the last one
    businessClock.now = () => new Date('2026-11-21T03:00:00Z');
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    customer = await c.customer();
    product = await c.product();
  });
  afterAll(async () => { businessClock.now = realNow; await t?.close(); });

  const draft = async () => {
    const res = await c.call('POST', '/api/tax_invoice', c.admin, { doc_date: '2026-11-21', your_company_id: company, customer_id: customer, items: [{ product_id: product, qty: 1, price: 100 }] });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Row;
  };
  const issue = (id: number) => c.call('POST', `/api/tax_invoice/${id}/actions/issue`, c.admin);

  it('a draft has no number; issuing numbers it; a deleted draft leaves no gap', async () => {
    const a = await draft();
    expect(a.doc_no).toBeNull();
    expect(a).toMatchObject({ buyer_tax_id: expect.stringMatching(/^\d{13}$/), seller_tax_id: expect.stringMatching(/^\d{13}$/), seller_branch_code: '00000' });
    const b = await draft();
    expect((await c.call('DELETE', `/api/tax_invoice/${b.id}`, c.admin)).statusCode).toBe(200);
    const issued = (await issue(a.id)).json().data;
    expect(issued.doc_no).toMatch(/^CO\d+-IV202611-0001$/);
    const d = await draft();
    expect(seqOf((await issue(d.id)).json().data.doc_no)).toBe(2);
  });

  it('parallel issues take consecutive numbers, none twice and none skipped', async () => {
    const drafts: Row[] = [];
    for (let i = 0; i < 30; i++) drafts.push(await draft());
    const before = (await c.call('GET', '/api/tax_invoice?filter=' + encodeURIComponent(JSON.stringify({ doc_no: { _nnull: true } })) + '&limit=500', c.admin)).json().data.length;
    const res = await Promise.all(drafts.map((x) => issue(x.id)));
    expect(res.map((r) => r.statusCode)).toEqual(drafts.map(() => 200));
    const seqs = res.map((r) => seqOf(r.json().data.doc_no)).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 30 }, (_, i) => before + 1 + i));
  });

  it('an issue that fails gives its number back: the next one issued takes it', async () => {
    const so = (await c.call('POST', '/api/sales_order', c.admin, { doc_date: '2026-11-21', your_company_id: company, customer_id: customer, items: [{ product_id: product, qty: 1, price: 500 }] })).json().data;
    expect((await c.call('POST', `/api/sales_order/${so.id}/actions/approve`, c.admin)).statusCode).toBe(200);
    const one = (await c.call('POST', '/api/tax_invoice/from/sales_order', c.admin, { ids: [so.id] })).json().data;
    const two = (await c.call('POST', '/api/tax_invoice/from/sales_order', c.admin, { ids: [so.id] })).json().data;
    const first = seqOf((await issue(one.id)).json().data.doc_no);
    const refused = await issue(two.id);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.code).toBe('OVER_PROCESSED');
    expect((await c.call('GET', `/api/tax_invoice/${two.id}`, c.admin)).json().data).toMatchObject({ status: 'draft', doc_no: null });
    expect(seqOf((await issue((await draft()).id)).json().data.doc_no)).toBe(first + 1);
  });
});
