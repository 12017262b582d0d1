/**
 * Returns of part of a POS sale (POST /api/pos_order/{id}/return), both dialects: the edit flag, only what is left
 * of a line, stock back for just those quantities, the money back by the sale's payments (cash first), audited;
 * the shift's expected cash and the POS reports net of returns; returning what is left of every line is the
 * refund of the whole sale (stock and money net to zero). Figures: engine/pos/return-math.test.ts, docs/pos.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { posShop } from '../support/pos-fixtures.ts';
import { businessToday } from '../../engine/documents/business-time.ts';

type Row = Record<string, any>;

describe.each(testDialects())('POS partial returns on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let inv: number, cash: number, transfer: number, tape: number, film: number, shift: number;
  let sale: Row;
  let n = 0;
  const sell = async (body: Row): Promise<Row> => (await c.ok(c.call('POST', '/api/pos_order', c.admin, body, { headers: { ...c.admin, 'idempotency-key': `return-${dialect}-${++n}-key` } }), 201)) as Row;
  const ret = (id: number, body: unknown, as = c.admin) => c.call('POST', `/api/pos_order/${id}/return`, as, body);
  const get = async (id: number) => (await c.call('GET', `/api/pos_order/${id}`, c.admin)).json().data as Row;
  const lineOf = (o: Row, product: number) => o.items.find((l: Row) => l.product_id === product);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    const shop = await posShop(c);
    ({ inv, cash } = shop);
    const { pos } = shop;
    transfer = await c.make('payment_method', { code: 'TR', name_th: 'โอน', payment_type: 'transfer', bank_account_no: '123-4-56789-0' });
    tape = await c.product({ price: 120 });
    film = await c.product({ price: 45.5 });
    await c.make('promotion', { code: 'TAPE10', name: 'เทปลด 10%', promotion_type: 'item_discount', product_id: tape, discount_type: 'percent', discount_value: 10, start_date: '2000-01-01', end_date: '2999-12-31', is_publish: true });
    await c.receive(inv, [{ product_id: tape, qty: 20, price: 80 }, { product_id: film, qty: 10, price: 30 }]);
    shift = (await c.ok(c.call('POST', '/api/pos_shift', c.admin, { pos_id: pos, opening_cash: 1000 }), 201)).id;
    // 3 × 120.00 less 10 % = 324.00 and 2 × 45.50 = 91.00: 415.00 paid 300.00 cash + 215.00 transfer, change 100.00
    sale = await sell({ pos_shift_id: shift, items: [{ product_id: tape, qty: 3 }, { product_id: film, qty: 2 }], payments: [{ payment_method_id: cash, amount: 300 }, { payment_method_id: transfer, amount: 215 }] });
    expect(sale).toMatchObject({ total_amount: 415, vat_amount: 27.15, change_amount: 100, returned_amount: 0 });
  });
  afterAll(async () => t?.close());

  it('needs edit on pos_order_refund besides edit; refuses more than is left, a line of another sale, and writes nothing then', async () => {
    const role = await c.role('แคชเชียร์ขายอย่างเดียว', { pos_order: { view: true, edit: true } });
    await c.user('seller', { role_id: role, user_type_id: await c.userType('แคชเชียร์ขายอย่างเดียว', role) });
    const tapeLine = lineOf(sale, tape).id;
    expectError(await ret(sale.id, { items: [{ line_id: tapeLine, qty: 1 }] }, await c.signIn('seller')), 403, 'FORBIDDEN');
    const stock = await c.onHand(tape, inv);
    const over = await ret(sale.id, { items: [{ line_id: tapeLine, qty: 4 }] });
    expectError(over, 400, 'VALIDATION_FAILED');
    expect(over.json().error.details.fields[0]).toMatchObject({ field: 'items.0.qty', code: 'over_returned' });
    const other = await ret(sale.id, { items: [{ line_id: 999999, qty: 1 }] });
    expect(other.json().error.details.fields[0]).toMatchObject({ field: 'items.0.line_id', code: 'link' });
    expectError(await ret(sale.id, { items: [] }), 400, 'VALIDATION_FAILED');
    expectError(await ret(sale.id, { items: [{ line_id: tapeLine, qty: 1, price: 1 }] }), 400, 'UNKNOWN_FIELD');
    expectError(await ret(sale.id, { items: [{ line_id: tapeLine, qty: 0 }] }), 400, 'VALIDATION_FAILED');
    expect(await c.onHand(tape, inv)).toBe(stock);
    expect(await get(sale.id)).toMatchObject({ status: 'paid', returned_amount: 0, refunds: [] });
  });

  it('returns one unit: its share of the total back in cash, its stock back, audited', async () => {
    const stock = await c.onHand(tape, inv);
    const res = await ret(sale.id, { items: [{ line_id: lineOf(sale, tape).id, qty: 1 }], refund_reason: 'ชำรุด' });
    expect(res.statusCode, res.body).toBe(200);
    // 324.00 / 3 = 108.00, VAT 108 × 7 / 107 = 7.07; the drawer kept 200.00 cash, so all of it in cash
    expect(res.json().meta.returned).toEqual({ amount: 108, vat: 7.07, refunded_whole: false, refunds: [{ payment_method_id: cash, payment_type: 'cash', amount: 108 }], credit_note: null });
    const o = res.json().data;
    expect(o).toMatchObject({ status: 'paid', returned_amount: 108, returned_vat: 7.07, total_amount: 415 });
    expect(lineOf(o, tape).returned_qty).toBe(1);
    expect(o.refunds).toHaveLength(1);
    expect(o.refunds[0]).toMatchObject({ payment_type: 'cash', amount: 108, reason: 'ชำรุด' });
    expect(await c.onHand(tape, inv)).toBe(stock + 1);
    const log = await t.db.kysely.selectFrom('system_log').selectAll().where('entity', '=', 'pos_order').where('record_id', '=', String(sale.id)).execute();
    expect(log.map((l) => String(l.changes ?? '')).join(' ')).toContain('returned_amount');
  });

  it('a second return: cash up to what is left in the drawer, then transfer; the shift\'s expected cash is net of it', async () => {
    const res = await ret(sale.id, { items: [{ line_id: lineOf(sale, film).id, qty: 2 }, { line_id: lineOf(sale, tape).id, qty: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
    // returned so far 1 + 1 tape and 2 film: 216.00 + 91.00 = 307.00, VAT 307 × 7 / 107 = 20.084… → 20.08; this one 199.00, VAT 20.08 − 7.07 = 13.01
    // cash: 200.00 kept − 108.00 given back = 92.00, the other 107.00 by transfer
    expect(res.json().meta.returned).toEqual({
      amount: 199, vat: 13.01, refunded_whole: false,
      refunds: [{ payment_method_id: cash, payment_type: 'cash', amount: 92 }, { payment_method_id: transfer, payment_type: 'transfer', amount: 107 }],
      credit_note: null, // no full tax invoice, no credit note (pos-credit-note.test.ts)
    });
    expect(res.json().data).toMatchObject({ returned_amount: 307, returned_vat: 20.08 });
    // the slip says what went back
    const slip = await c.call('GET', `/api/pos_order/${sale.id}/slip`, c.admin);
    expect(execFileSync('pdftotext', ['-layout', '-', '-'], { input: slip.rawPayload }).toString('utf8').replace(/\u200b/g, '')).toMatch(/คืนสินค้าแล้ว\s+-307\.00/);
  });

  it('the reports are net of the returns', async () => {
    const today = businessToday(new Date());
    const one = (await c.call('GET', `/api/report/pos_order_report_one?date_from=${today}&date_to=${today}`, c.admin)).json().data;
    expect(one.rows.find((r: Row) => r.doc_no === sale.doc_no)).toMatchObject({ total_amount: 415, returned_amount: 307, net_amount: 108 });
    const channel = (await c.call('GET', `/api/report/pos_sale_summary_by_sale_channel?date_from=${today}&date_to=${today}`, c.admin)).json().data;
    // 415.00 − 307.00 = 108.00: VAT 27.15 − 20.08 = 7.07, before VAT 100.93
    expect(channel.rows[0]).toMatchObject({ order_count: 1, returned_amount: 307, total_amount: 108, vat_amount: 7.07, amount_before_vat: 100.93 });
  });

  it('returning what is left refunds the whole sale: status refunded, stock as before the sale', async () => {
    const before = await c.onHand(tape, inv);
    const o = await sell({ pos_shift_id: shift, items: [{ product_id: tape, qty: 2 }], payments: [{ payment_method_id: cash, amount: 216 }] });
    const line = o.items[0].id;
    expect((await ret(o.id, { items: [{ line_id: line, qty: 0.5 }] })).statusCode).toBe(200);
    expect(await c.onHand(tape, inv)).toBe(before - 1.5);
    const res = await ret(o.id, { items: [{ line_id: line, qty: 1.5 }], refund_reason: 'คืนทั้งบิล' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().meta.returned).toMatchObject({ amount: 162, refunded_whole: true });
    expect(res.json().data).toMatchObject({ status: 'refunded', refund_reason: 'คืนทั้งบิล' });
    expect(await c.onHand(tape, inv)).toBe(before);
    expectError(await ret(o.id, { items: [{ line_id: line, qty: 0.5 }] }), 409, 'INVALID_TRANSITION');
  });

  it('closes the shift with the cash the returns gave back taken out', async () => {
    // cash kept: 300 − 100 change (the first sale) − 108 − 92 given back; the refunded sale counts nothing
    const res = await c.call('POST', `/api/pos_shift/${shift}/actions/close`, c.admin, { counted_cash: 1000 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ cash_sales: 0, expected_cash: 1000, difference: 0 });
  });
});
