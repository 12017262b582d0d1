/**
 * Issue 31 §2 and §3: a receipt records the tax the customer withheld (wht_amount, with its 50 ทวิ's
 * number and date); a bill is settled by the money received plus the tax withheld, and is `paid`
 * only when that covers it to the satang; the collection summary shows both, summed exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('receipts with tax withheld, paid to the satang, on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let product: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    product = await c.product();
  });
  afterAll(async () => t?.close());

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const get = (entity: string, id: number) => ok(c.call('GET', `/api/${entity}/${id}`, c.admin));
  const act = (entity: string, id: number, action: string) => ok(c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin));
  const from = (target: string, source: string, body: Row) => ok(c.call('POST', `/api/${target}/from/${source}`, c.admin, body), 201);
  const summaryOf = async (customer: number) => (await ok(c.call('GET', `/api/report/collection_summary?customer_id=${customer}`, c.admin))).customers[0];

  /** An issued bill of a whole approved order of one line. */
  const bill = async (customer: number, price: number, extra: Row = {}): Promise<Row> => {
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, vat_type: 'exclude', ...extra, items: [{ product_id: product, qty: 1, price }] }), 201);
    await act('sales_order', so.id, 'approve');
    const bn = await from('billing_note', 'sales_order', { ids: [so.id] });
    return act('billing_note', bn.id, 'issue');
  };

  it('10,700 for services less 3 % WHT: 10,400 transferred and a 50 ทวิ of 300 settle the bill', async () => {
    const customer = await c.customer();
    const bn = await bill(customer, 10000, { wht_rate: 3 });
    expect(bn.total_amount).toBe(10700);
    const r = await from('receipt', 'billing_note', {
      ids: [bn.id], values: { payment_method: 'transfer', bank_name: 'ธนาคารกสิกรไทย', wht_amount: 300, wht_certificate_no: 'WT-2026-0042', wht_certificate_date: '2026-11-20' },
    });
    expect(r).toMatchObject({ total_amount: 10700, wht_amount: 300, net_amount: 10400, wht_certificate_no: 'WT-2026-0042', wht_certificate_date: '2026-11-20' });
    await act('receipt', r.id, 'post');
    expect((await get('billing_note', bn.id)).status).toBe('paid');
    expect(await summaryOf(customer)).toMatchObject({ billed: 10700, received: 10400, withheld: 300, outstanding: 0 });
  });

  it('10,400 received without the certificate leaves 300 open', async () => {
    const customer = await c.customer();
    const bn = await bill(customer, 10000, { wht_rate: 3 });
    const r = await from('receipt', 'billing_note', { ids: [bn.id], lines: [{ source_line_id: bn.items[0].id, amount: 10400 }] });
    expect(r).toMatchObject({ total_amount: 10400, wht_amount: 0, net_amount: 10400 });
    await act('receipt', r.id, 'post');
    expect((await get('billing_note', bn.id)).status).toBe('partially_paid');
    expect(await summaryOf(customer)).toMatchObject({ billed: 10700, received: 10400, withheld: 0, outstanding: 300 });
  });

  it('refuses a withheld tax that is negative or more than the receipt', async () => {
    const customer = await c.customer();
    const bn = await bill(customer, 1000);
    const r = await from('receipt', 'billing_note', { ids: [bn.id] });
    const more = await c.call('PATCH', `/api/receipt/${r.id}`, c.admin, { wht_amount: 1070.01 });
    expectError(more, 400, 'VALIDATION_FAILED');
    expect(more.json().error.details.fields.map((f: Row) => f.field)).toContain('wht_amount');
    expectError(await c.call('PATCH', `/api/receipt/${r.id}`, c.admin, { wht_amount: -1 }), 400, 'VALIDATION_FAILED');
    expect((await get('receipt', r.id))).toMatchObject({ wht_amount: 0, net_amount: 1070 });
  });

  it('a bill of 214.11 paid by two receipts of 107.05 stays partially paid with 0.01 outstanding', async () => {
    const customer = await c.customer();
    // 200.10 + VAT 14.007 → 14.01 = 214.11
    const bn = await bill(customer, 200.1);
    expect(bn.total_amount).toBe(214.11);
    for (let i = 0; i < 2; i++) {
      const r = await from('receipt', 'billing_note', { ids: [bn.id], lines: [{ source_line_id: bn.items[0].id, amount: 107.05 }] });
      expect(r.total_amount).toBe(107.05);
      await act('receipt', r.id, 'post');
    }
    expect((await get('billing_note', bn.id)).status).toBe('partially_paid');
    const open = await ok(c.call('GET', `/api/receipt/from/billing_note?ids=${bn.id}`, c.admin));
    expect(open.map((l: Row) => [l.ordered, l.done, l.remaining])).toEqual([[214.11, 214.1, 0.01]]);
    expect(await summaryOf(customer)).toMatchObject({ billed: 214.11, received: 214.1, withheld: 0, outstanding: 0.01 });
    const last = await from('receipt', 'billing_note', { ids: [bn.id] });
    expect(last.total_amount).toBe(0.01);
    await act('receipt', last.id, 'post');
    expect((await get('billing_note', bn.id)).status).toBe('paid');
    expect(await summaryOf(customer)).toMatchObject({ received: 214.11, outstanding: 0 });
  });
});
