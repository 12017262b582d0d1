/**
 * Issue 33 §2, §4, §5, §9: shifts open with a float and close with counted cash (expected = float + cash taken −
 * change); a sale is a pos_order made and posted at once, priced by the server with promotions, taking stock out
 * of the terminal's inventory; a refund restores it (edit flag, audited); an Idempotency-Key stores a sale once,
 * concurrent repeats included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError, thaiTaxId } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';

describe.each(testDialects())('POS sales on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let pos: number;
  let inv: number;
  let cash: number;
  let transfer: number;
  let tape: number;
  let film: number;
  let shift: number;
  let keyNo = 0;
  const key = () => `test-key-${dialect}-${++keyNo}-abcdef`;
  const sell = (body: Record<string, unknown>, k: string | null = key(), as = c.admin) =>
    c.call('POST', '/api/pos_order', as, body, k ? { headers: { ...as, 'idempotency-key': k } } : {});
  const count = async () => Number((await c.call('GET', '/api/pos_order?meta=total_count&limit=1', c.admin)).json().meta.total_count);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    const company = await c.company();
    inv = await c.inventory(company);
    const channel = await c.make('sales_channels', { code: 'SHOP', name_th: 'หน้าร้าน', channel_type: 'pos', your_company_id: company });
    pos = await c.make('pos', { code: 'POS1', name: 'เครื่อง 1', your_company_id: company, inventory_id: inv, sales_channel_id: channel });
    cash = await c.make('payment_method', { code: 'CASH', name_th: 'เงินสด', payment_type: 'cash' });
    transfer = await c.make('payment_method', { code: 'TR', name_th: 'โอน', payment_type: 'transfer', bank_account_no: '123-4-56789-0' });
    tape = await c.product({ price: 120 });
    film = await c.product({ price: 45.5 });
    await c.make('promotion', { code: 'TAPE10', name: 'เทปลด 10%', promotion_type: 'item_discount', product_id: tape, discount_type: 'percent', discount_value: 10, start_date: '2000-01-01', end_date: '2999-12-31', is_publish: true });
    await c.make('promotion', { code: 'OFF', name: 'ยังไม่เผยแพร่', promotion_type: 'item_discount', product_id: film, discount_type: 'percent', discount_value: 50, start_date: '2000-01-01', end_date: '2999-12-31', is_publish: false });
    await c.receive(inv, [{ product_id: tape, qty: 20, price: 80 }, { product_id: film, qty: 10, price: 30 }]);
    await c.settings({ tax_invoice: 'abbreviated' });
  });
  afterAll(async () => t?.close());

  it('opens a shift with a float, one open shift per terminal', async () => {
    const res = await c.call('POST', '/api/pos_shift', c.admin, { pos_id: pos, opening_cash: 1000 });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json().data;
    expect(s).toMatchObject({ status: 'open', opening_cash: 1000, inventory_id: inv });
    expect(s.shift_no).toMatch(/^POS1-S\d{4}-0001$/);
    shift = s.id;
    const again = await c.call('POST', '/api/pos_shift', c.admin, { pos_id: pos, opening_cash: 0 });
    expectError(again, 400, 'VALIDATION_FAILED');
    expect(again.json().error.details.fields[0]).toMatchObject({ field: 'pos_id', code: 'shift_already_open' });
  });

  it('opens one shift of two opened at once on a new terminal', async () => {
    const terminal = (await c.call('GET', `/api/pos/${pos}`, c.admin)).json().data;
    // several terminals: each shift's insert takes a key-share lock on its terminal before the rule locks it, and
    // two such inserts once deadlocked on PostgreSQL (a 500 for one of them) when the rule's lock was FOR UPDATE
    for (const n of [2, 3, 4, 5, 6]) {
      const other = await c.make('pos', { code: `POS${n}`, name: `เครื่อง ${n}`, your_company_id: terminal.your_company_id, inventory_id: inv, sales_channel_id: terminal.sales_channel_id });
      const both = await Promise.all([0, 1].map(() => c.call('POST', '/api/pos_shift', c.admin, { pos_id: other, opening_cash: 100 })));
      expect(both.map((r) => r.statusCode).sort(), both.map((r) => r.body).join('\n')).toEqual([201, 400]);
    }
  });

  it('sells: prices from the product with the day\'s promotion, VAT included, stock out, abbreviated invoice per terminal', async () => {
    const before = await c.onHand(tape, inv);
    const res = await sell({ pos_shift_id: shift, items: [{ product_id: tape, qty: 3 }, { product_id: film, qty: 2 }], payments: [{ payment_method_id: cash, amount: 500 }] });
    expect(res.statusCode, res.body).toBe(201);
    const o = res.json().data;
    // 3 × 120 − 10 % = 324.00; 2 × 45.50 = 91.00 (the unpublished 50 % does not count); 415.00, VAT 415 × 7 / 107 = 27.15
    expect(o.items.map((l: { price: number; discount_amount: number; amount: number }) => [l.price, l.discount_amount, l.amount])).toEqual([[120, 36, 324], [45.5, 0, 91]]);
    expect(o).toMatchObject({ status: 'paid', subtotal: 415, total_amount: 415, vat_amount: 27.15, amount_before_vat: 387.85, paid_amount: 500, change_amount: 85, invoice_type: 'abbreviated', pos_id: pos, inventory_id: inv });
    expect(o.doc_no).toMatch(/^POS1-R\d{4}-00001$/);
    expect(o.tax_invoice_no).toMatch(/^POS1-ABB\d{4}-00001$/);
    expect(o.payments[0]).toMatchObject({ payment_method_id: cash, payment_type: 'cash', amount: 500 });
    expect(await c.onHand(tape, inv)).toBe(before - 3);
  });

  it('prints an 80 mm slip in Thai with VAT included, with the print flag', async () => {
    const sale = (await c.call('GET', `/api/pos_order?limit=1&sort=id`, c.admin)).json().data[0];
    const res = await c.call('GET', `/api/pos_order/${sale.id}/slip`, c.admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = res.rawPayload.toString('latin1');
    expect(pdf.startsWith('%PDF')).toBe(true);
    expect(pdf).toMatch(/\/MediaBox \[0 0 226\.8/);
    const role = await c.role('ขายอย่างเดียว', { pos_order: { view: true, edit: true, print: false } });
    await c.user('noprint', { role_id: role, user_type_id: await c.userType('ขายอย่างเดียว', role) });
    expectError(await c.call('GET', `/api/pos_order/${sale.id}/slip`, await c.signIn('noprint')), 403, 'FORBIDDEN');
  });

  it('stores a sale once per Idempotency-Key, concurrent repeats included', async () => {
    const k = key();
    const body = { pos_shift_id: shift, items: [{ product_id: film, qty: 1 }], payments: [{ payment_method_id: transfer, amount: 45.5 }] };
    const first = await sell(body, k);
    expect(first.statusCode, first.body).toBe(201);
    const n = await count();
    const repeat = await sell(body, k);
    expect(repeat.statusCode, repeat.body).toBe(200);
    expect(repeat.json().data.id).toBe(first.json().data.id);
    expect(repeat.json().meta.replayed).toBe(true);
    expect(await count()).toBe(n);

    const k2 = key();
    const stock = await c.onHand(film, inv);
    const all = await Promise.all([sell(body, k2), sell(body, k2), sell(body, k2)]);
    expect(all.map((r) => r.statusCode).sort(), all.map((r) => r.body).join('\n')).toEqual([200, 200, 201]);
    expect(new Set(all.map((r) => r.json().data.id)).size).toBe(1);
    expect(await count()).toBe(n + 1);
    expect(await c.onHand(film, inv)).toBe(stock - 1);
  });

  it('refuses a sale without a key, unpaid, paid over by transfer, or of a product without a price; writes nothing', async () => {
    const n = await count();
    expectError(await sell({ pos_shift_id: shift, items: [{ product_id: film, qty: 1 }], payments: [{ payment_method_id: cash, amount: 50 }] }, null), 400, 'BAD_REQUEST');
    const short = await sell({ pos_shift_id: shift, items: [{ product_id: film, qty: 1 }], payments: [{ payment_method_id: cash, amount: 40 }] });
    expectError(short, 400, 'VALIDATION_FAILED');
    expect(short.json().error.details.fields[0]).toMatchObject({ field: 'payments', code: 'underpaid' });
    const over = await sell({ pos_shift_id: shift, items: [{ product_id: film, qty: 1 }], payments: [{ payment_method_id: transfer, amount: 100 }] });
    expect(over.json().error.details.fields[0]).toMatchObject({ field: 'payments', code: 'overpaid_non_cash' });
    const free = await c.product({ price: null });
    const noPrice = await sell({ pos_shift_id: shift, items: [{ product_id: free, qty: 1 }], payments: [{ payment_method_id: cash, amount: 1 }] });
    expect(noPrice.json().error.details.fields[0]).toMatchObject({ field: 'items.0.product_id', code: 'no_price' });
    const forged = await sell({ pos_shift_id: shift, items: [{ product_id: film, qty: 1, price: 1 }], payments: [{ payment_method_id: cash, amount: 1 }] });
    expect(forged.json().error.details.fields[0]).toMatchObject({ field: 'items.0.price', code: 'unknown_field' });
    const tooMany = await sell({ pos_shift_id: shift, items: [{ product_id: film, qty: 999 }], payments: [{ payment_method_id: cash, amount: 50000 }] });
    expectError(tooMany, 409, 'INSUFFICIENT_STOCK');
    expect(await count()).toBe(n);
  });

  it('issues a full tax invoice on request, in its own series', async () => {
    const res = await sell({
      pos_shift_id: shift, items: [{ product_id: film, qty: 1 }], payments: [{ payment_method_id: cash, amount: 50 }],
      invoice_type: 'full', buyer_name: 'บริษัท ผู้ซื้อ จำกัด', buyer_tax_id: thaiTaxId(105558001), buyer_branch_code: '00000',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ invoice_type: 'full', tax_invoice_no: expect.stringMatching(/^POS1-INV\d{4}-00001$/) });
    const missing = await sell({ pos_shift_id: shift, items: [{ product_id: film, qty: 1 }], payments: [{ payment_method_id: cash, amount: 50 }], invoice_type: 'full' });
    expect(missing.json().error.details.fields.map((f: { field: string }) => f.field)).toEqual(['buyer_name', 'buyer_tax_id', 'buyer_branch_code']);
  });

  it('refunds with the edit flag only, restores the stock and is audited', async () => {
    const sold = (await sell({ pos_shift_id: shift, items: [{ product_id: tape, qty: 2 }], payments: [{ payment_method_id: cash, amount: 300 }] })).json().data;
    const stock = await c.onHand(tape, inv);
    const role = await c.role('แคชเชียร์ดูอย่างเดียว', { pos_order: { view: true, edit: false } });
    const type = await c.userType('แคชเชียร์ดูอย่างเดียว', role);
    await c.user('viewer', { role_id: role, user_type_id: type });
    const viewer = await c.signIn('viewer');
    expectError(await c.call('POST', `/api/pos_order/${sold.id}/actions/refund`, viewer, {}), 403, 'FORBIDDEN');
    expectError(await sell({ pos_shift_id: shift, items: [{ product_id: tape, qty: 1 }], payments: [{ payment_method_id: cash, amount: 200 }] }, key(), viewer), 403, 'FORBIDDEN');
    const res = await c.call('POST', `/api/pos_order/${sold.id}/actions/refund`, c.admin, { refund_reason: 'ลูกค้าเปลี่ยนใจ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'refunded', refund_reason: 'ลูกค้าเปลี่ยนใจ' });
    expect(await c.onHand(tape, inv)).toBe(stock + 2);
    const log = await t.db.kysely.selectFrom('system_log').selectAll().where('entity', '=', 'pos_order').where('record_id', '=', String(sold.id)).execute();
    expect(log.map((l) => l.message ?? '').join(' ') + log.map((l) => String(l.changes ?? '')).join(' ')).toContain('refunded');
    expect(log.length).toBeGreaterThanOrEqual(2);
    expectError(await c.call('POST', `/api/pos_order/${sold.id}/actions/refund`, c.admin, {}), 409, 'INVALID_TRANSITION');
  });

  it('closes with counted cash: expected = float + cash payments − change; a closed shift is read-only', async () => {
    const orders = (await c.call('GET', `/api/pos_order?limit=500&filter=${encodeURIComponent(JSON.stringify({ pos_shift_id: { _eq: shift }, status: { _eq: 'paid' } }))}`, c.admin)).json().data as { id: number }[];
    let cashIn = 0;
    let change = 0;
    for (const { id } of orders) {
      const o = (await c.call('GET', `/api/pos_order/${id}`, c.admin)).json().data;
      cashIn += o.payments.filter((p: { payment_type: string }) => p.payment_type === 'cash').reduce((s: number, p: { amount: number }) => s + Math.round(p.amount * 100), 0);
      change += Math.round(o.change_amount * 100);
    }
    expect(cashIn - change).toBeGreaterThan(0);
    expectError(await c.call('POST', `/api/pos_shift/${shift}/actions/close`, c.admin, {}), 400, 'VALIDATION_FAILED');
    const res = await c.call('POST', `/api/pos_shift/${shift}/actions/close`, c.admin, { counted_cash: 1500 });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json().data;
    const expected = (100000 + cashIn - change) / 100;
    expect(s).toMatchObject({ status: 'closed', counted_cash: 1500, cash_sales: (cashIn - change) / 100, expected_cash: expected, difference: Math.round((1500 - expected) * 100) / 100 });
    expect(s.closed_at).toBeTruthy();
    expectError(await c.call('PATCH', `/api/pos_shift/${shift}`, c.admin, { opening_cash: 5 }), 409, 'DOCUMENT_LOCKED');
    expectError(await c.call('POST', `/api/pos_shift/${shift}/actions/close`, c.admin, { counted_cash: 1 }), 409, 'INVALID_TRANSITION');
    const late = await sell({ pos_shift_id: shift, items: [{ product_id: film, qty: 1 }], payments: [{ payment_method_id: cash, amount: 50 }] });
    expect(late.json().error.details.fields[0]).toMatchObject({ field: 'pos_shift_id', code: 'shift_not_open' });
  });
});
