/**
 * Issue 9: the collection summary: billed, received and outstanding per
 * customer for a period, aged by due date, checked against figures worked out
 * by hand; the same permission and row scope as the billing notes' list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, type Headers } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('collection summary on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let a: number;
  let b: number;

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const act = (entity: string, id: number, action: string) => ok(c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin));
  const bill = async (customer: number, billDate: string, due: string, amounts: number[], issue = true): Promise<Row> => {
    const bn = await ok(c.call('POST', '/api/billing_note', c.admin, {
      bill_date: billDate, due_date: due, customer_id: customer, your_company_id: company, items: amounts.map((amount, i) => ({ description: `งวด ${i + 1}`, amount })),
    }), 201);
    return issue ? act('billing_note', bn.id, 'issue') : bn;
  };
  // receipts are dated in the order they post (their series runs in date order)
  const pay = async (bn: Row, date: string, lines?: { source_line_id: number; amount: number }[]) => {
    const r = await ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [bn.id], values: { doc_date: date }, ...(lines ? { lines } : {}) }), 201);
    return act('receipt', r.id, 'post');
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    a = await c.customer();
    b = await c.customer();
    const product = await c.product();
    // A1: 1,500 without VAT, due 31 Aug, 600 received → 900 open, 91 days late on 30 Nov
    const a1 = await bill(a, '2026-08-01', '2026-08-31', [1000, 500]);
    await pay(a1, '2026-09-10', [{ source_line_id: a1.items[0].id, amount: 600 }]);
    // A2: 6,420 (VAT included) of an order with VAT excluded; 2,140 received; 4,280 open, 15 days late
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, { doc_date: '2026-10-25', your_company_id: company, customer_id: a, vat_type: 'exclude', items: [{ product_id: product, qty: 10, price: 1000 }] }), 201);
    await act('sales_order', so.id, 'approve');
    const a2 = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: so.items[0].id, amount: 6420 }] }), 201);
    await ok(c.call('PATCH', `/api/billing_note/${a2.id}`, c.admin, { bill_date: '2026-11-01', due_date: '2026-11-15' }));
    const issued = await act('billing_note', a2.id, 'issue');
    expect(issued.total_amount).toBe(6420);
    await pay(issued, '2026-11-05', [{ source_line_id: issued.items[0].id, amount: 2140 }]);
    // neither a draft nor a cancelled bill is billed
    await act('billing_note', (await bill(a, '2026-11-03', '2026-12-03', [888])).id, 'cancel');
    await bill(a, '2026-11-04', '2026-12-04', [999], false);
    // B1: 2,750.75 not due yet; B2: 100, wholly paid
    await bill(b, '2026-10-20', '2026-12-20', [2750.75]);
    await pay(await bill(b, '2026-07-01', '2026-09-15', [100]), '2026-11-06');
  });
  afterAll(async () => t?.close());

  const summary = (query: string, h: Headers = c.admin) => c.call('GET', `/api/report/collection_summary?${query}`, h);
  const forA = (x: Row) => x.customers.find((r: Row) => r.customer_id === a);

  it('adds up billed, received and outstanding per customer, aged by due date on the last day', async () => {
    const s = await ok(summary('to=2026-11-30'));
    expect(s).toMatchObject({ from: null, to: '2026-11-30' });
    expect(s.customers.map((r: Row) => r.customer_id)).toEqual([a, b]);
    expect(forA(s)).toEqual({
      customer_id: a, customer_name: expect.stringMatching(/^บริษัท ลูกค้า C\d+ จำกัด$/), bills: 2, billed: 7920, received: 2740, withheld: 0, received_direct: 0, outstanding: 5180,
      ageing: { current: 0, d1_30: 4280, d31_60: 0, d61_90: 0, over_90: 900 },
    });
    expect(s.customers[1]).toMatchObject({ bills: 2, billed: 2850.75, received: 100, outstanding: 2750.75, ageing: { current: 2750.75, d1_30: 0, d31_60: 0, d61_90: 0, over_90: 0 } });
    expect(s.totals).toEqual({ bills: 4, billed: 10770.75, received: 2840, withheld: 0, received_direct: 0, outstanding: 7930.75, ageing: { current: 2750.75, d1_30: 4280, d31_60: 0, d61_90: 0, over_90: 900 } });
  });

  it('takes the bills dated in the period, and ages on its last day', async () => {
    const s = await ok(summary('from=2026-10-01&to=2026-11-30'));
    expect(forA(s)).toMatchObject({ bills: 1, billed: 6420, received: 2140, outstanding: 4280 });
    // on 30 September A1 is 30 days late and A2 not billed yet
    const sep = await ok(summary(`to=2026-09-30&customer_id=${a}`));
    expect(sep.customers).toHaveLength(1);
    expect(forA(sep)).toMatchObject({ bills: 1, outstanding: 900, ageing: { d1_30: 900, over_90: 0 } });
  });

  it('as of a day, counts only receipts dated on or before it (issue 44 §7)', async () => {
    // A1's 600 came on 10 September: on 5 September all 1,500 were open
    const before = await ok(summary(`to=2026-09-05&customer_id=${a}`));
    expect(forA(before)).toMatchObject({ bills: 1, billed: 1500, received: 0, outstanding: 1500, ageing: { d1_30: 1500 } });
    const after = await ok(summary(`to=2026-09-10&customer_id=${a}`));
    expect(forA(after)).toMatchObject({ received: 600, outstanding: 900 });
  });

  it('counts every receipt of the customer, also those made straight from an order (issue 44 §1)', async () => {
    const d = await c.customer();
    const product = await c.product();
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, { doc_date: '2026-11-07', your_company_id: company, customer_id: d, vat_type: 'exclude', items: [{ product_id: product, qty: 1, price: 1000 }] }), 201);
    await act('sales_order', so.id, 'approve');
    const r = await ok(c.call('POST', '/api/receipt/from/sales_order', c.admin, { ids: [so.id], values: { doc_date: '2026-11-08', wht_amount: 30 } }), 201);
    await act('receipt', r.id, 'post');
    const s = await ok(summary(`to=2026-11-30&customer_id=${d}`));
    expect(s.customers).toEqual([expect.objectContaining({ customer_id: d, bills: 0, billed: 0, received: 1040, received_direct: 1040, withheld: 30, outstanding: 0 })]);
    // not yet received on 7 November
    expect((await ok(summary(`to=2026-11-07&customer_id=${d}`))).customers).toEqual([]);
  });

  it('is read with the billing notes\' rights: no view is 403, a portal customer sees only its own', async () => {
    const none = await c.staff('cs_none', { customer: { view: true } });
    expectError(await summary('to=2026-11-30', none.headers), 403, 'FORBIDDEN');
    const me = await c.customerUser(b);
    const mine = await ok(summary(`to=2026-11-30&customer_id=${a}`, me.headers));
    expect(mine.customers).toEqual([]);
    const own = await ok(summary('to=2026-11-30', me.headers));
    expect(own.customers.map((r: Row) => r.customer_id)).toEqual([b]);
    expect(own.totals.outstanding).toBe(2750.75);
  });

  it('refuses a malformed period', async () => {
    expectError(await summary('to=30/11/2026'), 400, 'INVALID_QUERY');
    expectError(await summary('from=2026-12-01&to=2026-11-30'), 400, 'INVALID_QUERY');
    expectError(await summary('customer=1'), 400, 'INVALID_QUERY');
  });
});
