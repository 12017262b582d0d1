/**
 * The spec's POS reports (issue 33 §6) in the report-file format, against a hand-computed shop: two terminals of two
 * companies on two channels, three paid sales and one refunded, a bill promotion, one shift closed 14 baht short.
 * Prices include VAT 7 %: 107.00 is 100.00 + 7.00; 970.00 has VAT 970 × 7 / 107 = 63.457… → 63.46.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { businessToday } from '../../engine/documents/business-time.ts';

type Row = Record<string, any>;

describe.each(testDialects())('POS reports on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  const today = businessToday(new Date());
  const range = `date_from=${today}&date_to=${today}`;
  const codes: Record<string, string> = {};
  let n = 0;
  const report = async (path: string, as = c.admin) => {
    const res = await c.call('GET', `/api/report/${path}`, as);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { rows: Row[]; totals: Row };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    const coA = await c.company();
    const coB = await c.company();
    codes.A = (await c.call('GET', `/api/your_company/${coA}`, c.admin)).json().data.code;
    codes.B = (await c.call('GET', `/api/your_company/${coB}`, c.admin)).json().data.code;
    const invA = await c.inventory(coA);
    const invB = await c.inventory(coB);
    const shop = await c.make('sales_channels', { code: 'SHOP', name_th: 'หน้าร้าน', channel_type: 'pos', your_company_id: coA });
    const fair = await c.make('sales_channels', { code: 'FAIR', name_th: 'ออกบูธ', channel_type: 'other', your_company_id: coB });
    const t1 = await c.make('pos', { code: 'T1', name: 'เครื่อง 1', your_company_id: coA, inventory_id: invA, sales_channel_id: shop });
    const t2 = await c.make('pos', { code: 'T2', name: 'เครื่อง 2', your_company_id: coB, inventory_id: invB, sales_channel_id: fair });
    const cash = await c.make('payment_method', { code: 'CASH', name_th: 'เงินสด', payment_type: 'cash' });
    const transfer = await c.make('payment_method', { code: 'TR', name_th: 'โอน', payment_type: 'transfer', bank_account_no: '111-1-11111-1' });
    const x = await c.product({ price: 107 });
    const y = await c.product({ price: 53.5 });
    await c.make('promotion', { code: 'FAIR100', name: 'ลด 100 เมื่อซื้อครบ 1,000', promotion_type: 'bill_discount', discount_type: 'amount', discount_value: 100, min_purchase: 1000, sales_channel_id: fair, start_date: '2000-01-01', end_date: '2999-12-31', is_publish: true });
    await c.receive(invA, [{ product_id: x, qty: 10, price: 50 }, { product_id: y, qty: 10, price: 20 }]);
    await c.receive(invB, [{ product_id: x, qty: 20, price: 50 }]);
    const open = async (pos: number, float: number) => (await c.ok(c.call('POST', '/api/pos_shift', c.admin, { pos_id: pos, opening_cash: float }), 201)).id as number;
    const sell = async (shift: number, items: [number, number][], payments: [number, number][]) => (await c.ok(c.call('POST', '/api/pos_order', c.admin,
      { pos_shift_id: shift, items: items.map(([product_id, qty]) => ({ product_id, qty })), payments: payments.map(([payment_method_id, amount]) => ({ payment_method_id, amount })) },
      { headers: { ...c.admin, 'idempotency-key': `report-${dialect}-${++n}-key` } }), 201)) as Row;
    const s1 = await open(t1, 500);
    const s2 = await open(t2, 0);
    codes.s1 = (await c.call('GET', `/api/pos_shift/${s1}`, c.admin)).json().data.shift_no;
    codes.s2 = (await c.call('GET', `/api/pos_shift/${s2}`, c.admin)).json().data.shift_no;
    await sell(s1, [[x, 2]], [[cash, 300]]); // 214.00, change 86.00
    await sell(s1, [[y, 1]], [[transfer, 53.5]]); // 53.50
    const voided = await sell(s1, [[x, 1]], [[cash, 107]]);
    await c.ok(c.call('POST', `/api/pos_order/${voided.id}/actions/refund`, c.admin, { refund_reason: 'สแกนผิด' }));
    await sell(s2, [[x, 10]], [[transfer, 970]]); // 1,070.00 less 100.00 = 970.00
    await c.ok(c.call('POST', `/api/pos_shift/${s1}/actions/close`, c.admin, { counted_cash: 700 })); // expected 500 + 300 − 86 = 714
  }, 120_000);
  afterAll(async () => t?.close());

  it('pos_order_report_one lists each paid sale, or the refunded ones', async () => {
    const { rows, totals } = await report(`pos_order_report_one?${range}`);
    expect(rows.map((r) => [r.pos_code, r.amount_before_vat, r.vat_amount, r.bill_discount, r.total_amount, r.paid_amount, r.change_amount])).toEqual([
      ['T1', 200, 14, 0, 214, 300, 86], ['T1', 50, 3.5, 0, 53.5, 53.5, 0], ['T2', 906.54, 63.46, 100, 970, 970, 0],
    ]);
    expect(totals).toEqual({ amount_before_vat: 1156.54, vat_amount: 80.96, bill_discount: 100, total_amount: 1237.5, returned_amount: 0, net_amount: 1237.5, paid_amount: 1323.5, change_amount: 86 });
    const refunded = await report(`pos_order_report_one?${range}&status=refunded`);
    expect(refunded.rows.map((r) => [r.pos_code, r.shift_no, r.total_amount])).toEqual([['T1', codes.s1, 107]]);
  });

  it('pos_shift_sale_summary gives each shift its sales and its cash at closing', async () => {
    const { rows, totals } = await report(`pos_shift_sale_summary?${range}`);
    const byShift = Object.fromEntries(rows.map((r) => [r.shift_no, r]));
    expect(byShift[codes.s1!]).toMatchObject({ pos_code: 'T1', status: 'closed', order_count: 2, total_sales: 267.5, opening_cash: 500, cash_sales: 214, expected_cash: 714, counted_cash: 700, difference: -14 });
    expect(byShift[codes.s2!]).toMatchObject({ pos_code: 'T2', status: 'open', order_count: 1, total_sales: 970, opening_cash: 0, expected_cash: null });
    expect(totals).toMatchObject({ order_count: 3, total_sales: 1237.5, cash_sales: 214, difference: -14 });
  });

  it('pos_sale_summary_by_company and _by_sale_channel split the paid sales', async () => {
    const company = await report(`pos_sale_summary_by_company?${range}`);
    expect(company.rows.map((r) => [r.company_code, r.order_count, r.amount_before_vat, r.vat_amount, r.bill_discount, r.total_amount]).sort()).toEqual([
      [codes.A, 2, 250, 17.5, 0, 267.5], [codes.B, 1, 906.54, 63.46, 100, 970],
    ].sort());
    expect(company.totals).toEqual({ order_count: 3, amount_before_vat: 1156.54, vat_amount: 80.96, bill_discount: 100, returned_amount: 0, total_amount: 1237.5 });
    const channel = await report(`pos_sale_summary_by_sale_channel?${range}`);
    expect(channel.rows.map((r) => [r.channel_code, r.channel_type, r.order_count, r.total_amount])).toEqual([['FAIR', 'other', 1, 970], ['SHOP', 'pos', 2, 267.5]]);
    expect(channel.totals.total_amount).toBe(1237.5);
  });

  it('follows the report permissions: the view flag, and a user limited to one company sees only its rows', async () => {
    const role = await c.role('รายงานหน้าร้าน', { pos_sale_summary_by_company: { view: true, export: true }, pos_order: { view: true } });
    const coA = (await c.call('GET', `/api/your_company?filter=${encodeURIComponent(JSON.stringify({ code: { _eq: codes.A } }))}`, c.admin)).json().data[0].id;
    const type = await c.userType('เฉพาะบริษัท A', role, { company: true });
    await c.user('shopa', { role_id: role, user_type_id: type, branch_company: [coA] });
    const as = await c.signIn('shopa');
    const limited = await report(`pos_sale_summary_by_company?${range}`, as);
    expect(limited.rows.map((r) => [r.company_code, r.total_amount])).toEqual([[codes.A, 267.5]]);
    expect(limited.totals.total_amount).toBe(267.5);
    expectError(await c.call('GET', `/api/report/pos_shift_sale_summary?${range}`, as), 403, 'FORBIDDEN');
    const csv = await c.call('GET', `/api/report/pos_sale_summary_by_company/export?format=csv&${range}`, as);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain(codes.B);
  });
});
