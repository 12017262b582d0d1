/**
 * Issue 44 §6: the tax a customer withholds on a receipt is at most 15 % (the highest Thai rate) of what the
 * receipt settles before VAT: a bill of 10,700.00 is not "paid" by a receipt with WHT 10,700.00 and no money.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('tax withheld on a receipt is at most 15 percent on %s', (dialect) => {
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
  const act = (entity: string, id: number, action: string) => ok(c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin));

  it('a bill of 10,700.00 settled by WHT 10,700.00 is refused naming wht_amount; 15 % of 10,000.00 is the most', async () => {
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 1, price: 10000 }] }), 201);
    await act('sales_order', so.id, 'approve');
    const bn = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id] }), 201);
    await act('billing_note', bn.id, 'issue');
    const refuse = async (wht: number) => {
      const res = await c.call('POST', '/api/receipt/from/billing_note', { ...c.admin, 'accept-language': 'th' }, { ids: [bn.id], values: { wht_amount: wht } });
      expectError(res, 400, 'VALIDATION_FAILED');
      const field = res.json().error.details.fields[0];
      expect(field).toMatchObject({ field: 'wht_amount', code: 'wht_over_limit', params: { max: '1500', base: '10000' } });
      expect(res.json().error.message).toMatch(/15/);
    };
    await refuse(10700);
    await refuse(1500.01);
    const r = await ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [bn.id], values: { wht_amount: 1500 } }), 201);
    expect(r).toMatchObject({ total_amount: 10700, wht_amount: 1500, net_amount: 9200 });
    // an edit that raises it past the limit is refused too
    const edit = await c.call('PATCH', `/api/receipt/${r.id}`, c.admin, { wht_amount: 2000 });
    expectError(edit, 400, 'VALIDATION_FAILED');
    expect(edit.json().error.details.fields[0]).toMatchObject({ field: 'wht_amount', code: 'wht_over_limit' });
    await act('receipt', r.id, 'post');
  });

  it('a receipt whose sources carry no WHT rate may still record one; its sources_wht_rate (which the form warns on) is 0', async () => {
    const order = async (wht: number) => {
      const so = await ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, vat_type: 'exclude', wht_rate: wht, items: [{ product_id: product, qty: 1, price: 1000 }] }), 201);
      await act('sales_order', so.id, 'approve');
      return so;
    };
    const plain = await order(0);
    const r0 = await ok(c.call('POST', '/api/receipt/from/sales_order', c.admin, { ids: [plain.id], values: { wht_amount: 30 } }), 201);
    expect(r0).toMatchObject({ wht_amount: 30, sources_wht_rate: 0 });
    // through a bill, the rate is the bill's order's
    const rated = await order(3);
    const bn = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [rated.id] }), 201);
    await act('billing_note', bn.id, 'issue');
    const r3 = await ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [bn.id], values: { wht_amount: 30 } }), 201);
    expect(r3).toMatchObject({ wht_amount: 30, sources_wht_rate: 3 });
    expect((await ok(c.call('GET', `/api/receipt/${r3.id}`, c.admin))).sources_wht_rate).toBe(3);
  });
});
