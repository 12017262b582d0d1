/**
 * Issue 31 §10: each demo role does the job its name says, and no more. Signs
 * in as each demo account of a freshly seeded demo business: the main calls of
 * its job answer 200 (or 201), something outside it answers 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoTestApp, TEST_HASH_LOG_N, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { seedDemoAccounts } from '../../seed/demo-accounts.ts';

type Row = Record<string, any>;
const PASSWORD = 'Demo-password-1';

describe.each(testDialects())('demo roles on %s', (dialect) => {
  let t: TestApp;
  const ids: Record<string, number> = {};

  const call = (headers: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as never }) });
  const signIn = async (username: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username, password: PASSWORD } });
    expect(res.statusCode, res.body).toBe(200);
    return { authorization: `Bearer ${res.json().data.id_token}` };
  };
  const idOf = async (entity: string, code: string) => {
    const res = await call(t.headers, 'GET', `/api/${entity}?filter=${encodeURIComponent(JSON.stringify({ code: { _eq: code } }))}`);
    return res.json().data[0].id as number;
  };
  const expectStatus = async (headers: Record<string, string>, calls: [('GET' | 'POST'), string, unknown?][], status: number) => {
    for (const [method, url, body] of calls) {
      const res = await call(headers, method, url, body);
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBe(status);
    }
  };

  beforeAll(async () => {
    t = await createDemoTestApp(dialect);
    await seedDemoAccounts(t.db, t.service, PASSWORD, TEST_HASH_LOG_N);
    for (const code of ['WH-BN', 'WH-BP']) ids[code] = await idOf('inventory', code);
    ids.TPT = await idOf('your_company', 'TPT');
    ids.C001 = await idOf('customer', 'C001');
    ids.product = (await call(t.headers, 'GET', '/api/product?limit=1')).json().data[0].id;
  }, 120_000);
  afterAll(async () => t?.close());

  it('warehouse staff: stock balances, movements, receipts, deliveries and transfers of WH-BN; not finance', async () => {
    const h = await signIn('warehouse');
    await expectStatus(h, [
      ['GET', '/api/stock/balance'], ['GET', '/api/stock_movement'], ['GET', '/api/stock/movements?direction=in&date=2026-11-20'],
      ['GET', '/api/goods_receipt'], ['GET', '/api/delivery_order'], ['GET', '/api/internal_product_transfer'],
    ], 200);
    const balance = (await call(h, 'GET', '/api/stock/balance')).json().data as Row[];
    expect(balance.length).toBeGreaterThan(0);
    expect(new Set(balance.map((r) => r.inventory_id))).toEqual(new Set([ids['WH-BN']]));
    await expectStatus(h, [['POST', '/api/goods_receipt', { doc_date: '2026-11-20', inventory_id: ids['WH-BN'], items: [{ product_id: ids.product, qty: 1, inventory_id: ids['WH-BN'] }] }]], 201);
    // another inventory's receipt, the finance documents and the product master are not the warehouse's
    await expectStatus(h, [
      ['POST', '/api/goods_receipt', { doc_date: '2026-11-20', inventory_id: ids['WH-BP'], items: [] }],
      ['GET', '/api/billing_note'], ['GET', '/api/receipt'], ['GET', '/api/tax_invoice'],
      ['POST', '/api/product', { code: 'WH-NEW', name_th: 'สินค้าใหม่', product_class: 'class_a', unit: 'ชิ้น', price: 1, vat_type: 'vat7' }],
    ], 403);
  });

  it('branch accountant: the finance documents of TPT; not stock, not sales', async () => {
    const h = await signIn('branch');
    await expectStatus(h, [
      ['GET', '/api/billing_note'], ['GET', '/api/receipt'], ['GET', '/api/tax_invoice'], ['GET', '/api/credit_note'],
      ['GET', '/api/debit_note'], ['GET', '/api/withholding_tax'], ['GET', '/api/report/collection_summary?to=2026-11-30'],
    ], 200);
    const bills = (await call(h, 'GET', '/api/billing_note?limit=500&fields=your_company_id')).json().data as Row[];
    expect(bills.length).toBeGreaterThan(0);
    expect(new Set(bills.map((b) => b.your_company_id))).toEqual(new Set([ids.TPT]));
    // a receipt without a company is the accountant's company's
    const receipt = await call(h, 'POST', '/api/receipt', { customer_id: ids.C001, doc_date: '2026-11-20', payment_method: 'cash', items: [{ description: 'รับชำระ', amount: 100 }] });
    expect(receipt.statusCode, receipt.body).toBe(201);
    expect(receipt.json().data.your_company_id).toBe(ids.TPT);
    const invoice = await call(h, 'POST', '/api/tax_invoice', { customer_id: ids.C001, doc_date: '2026-11-20', vat_type: 'exclude', items: [{ product_id: ids.product, qty: 1, price: 100 }] });
    expect(invoice.statusCode, invoice.body).toBe(201);
    expect(invoice.json().data.your_company_id).toBe(ids.TPT);
    await expectStatus(h, [['GET', '/api/stock/balance'], ['GET', '/api/stock_movement'], ['GET', '/api/quotation'], ['GET', '/api/user_role']], 403);
  });

  it('sales: customers, quotations and sales orders; not stock, not receipts', async () => {
    const h = await signIn('sales');
    await expectStatus(h, [['GET', '/api/customer'], ['GET', '/api/quotation'], ['GET', '/api/sales_order']], 200);
    const body = { customer_id: ids.C001, doc_date: '2026-11-20', vat_type: 'exclude', items: [{ product_id: ids.product, qty: 1, price: 100 }] };
    await expectStatus(h, [
      ['POST', '/api/quotation', body], ['POST', '/api/sales_order', body],
      ['POST', '/api/customer', { code: 'C-SALES', customer_type: 'individual', name_th: 'ลูกค้าใหม่' }],
    ], 201);
    await expectStatus(h, [['GET', '/api/stock/balance'], ['GET', '/api/receipt'], ['GET', '/api/tax_invoice'], ['GET', '/api/goods_receipt']], 403);
  });

  it('cashier: opens a shift, sells, prints the slip and closes the shift; cannot refund, return or edit a sale', async () => {
    const h = await signIn('cashier');
    const pos = await idOf('pos', 'POS-LK-01');
    const cash = await idOf('payment_method', 'CASH');
    const tape = await idOf('product', 'P006');
    await expectStatus(h, [['GET', '/api/pos'], ['GET', '/api/promotion/list?is_delete=0&is_publish=1'], ['GET', '/api/sales_channel_pos?is_deleted=0'], ['GET', `/api/product/${tape}`]], 200);
    const shift = await call(h, 'POST', '/api/pos_shift', { pos_id: pos, opening_cash: 500 });
    expect(shift.statusCode, shift.body).toBe(201);
    const sale = await t.app.inject({
      method: 'POST', url: '/api/pos_order', headers: { ...h, 'idempotency-key': `cashier-${dialect}-sale-1` },
      payload: { pos_shift_id: shift.json().data.id, items: [{ product_id: tape, qty: 1 }], payments: [{ payment_method_id: cash, amount: 1000 }] },
    });
    expect(sale.statusCode, sale.body).toBe(201);
    const o = sale.json().data;
    expect(o.cashier_id).toBeTruthy();
    await expectStatus(h, [['GET', `/api/pos_order/${o.id}/slip`]], 200);
    // refunds, returns and the remark of a posted sale need edit on pos_order_refund, which the cashier has not
    await expectStatus(h, [
      ['POST', `/api/pos_order/${o.id}/actions/refund`, { refund_reason: 'ลูกค้าเปลี่ยนใจ' }],
      ['POST', `/api/pos_order/${o.id}/return`, { items: [{ line_id: o.items[0].id, qty: 1 }] }],
    ], 403);
    expect((await t.app.inject({ method: 'PATCH', url: `/api/pos_order/${o.id}`, headers: h, payload: { remark: 'แก้ไข' } })).statusCode).toBe(403);
    await expectStatus(h, [['POST', `/api/pos_shift/${shift.json().data.id}/actions/close`, { counted_cash: 500 + o.total_amount }]], 200);
    await expectStatus(h, [['GET', '/api/stock/balance'], ['GET', '/api/receipt'], ['GET', '/api/user_role']], 403);
    // the administrator may refund (every key, pos_order_refund included)
    await expectStatus(t.headers, [['POST', `/api/pos_order/${o.id}/actions/refund`, { refund_reason: 'ทดสอบ' }]], 200);
  });

  const BOOKS = ['/api/account', '/api/journal_entry', '/api/report/trial_balance?date_from=2026-01-01&date_to=2026-12-31',
    '/api/report/profit_and_loss?date_from=2026-01-01&date_to=2026-12-31', '/api/report/balance_sheet?as_of=2026-12-31', '/api/report/vat_return?month=2026-11'];

  it('viewer: reads everything but the books, changes nothing', async () => {
    const h = await signIn('viewer');
    await expectStatus(h, [['GET', '/api/customer'], ['GET', '/api/quotation'], ['GET', '/api/billing_note'], ['GET', '/api/goods_receipt']], 200);
    await expectStatus(h, [['POST', '/api/customer', { code: 'C-VIEW', customer_type: 'individual', name_th: 'ลูกค้า' }]], 403);
    // issue 48 §4: no custom field added (the screen shows the viewer no form either: tests/e2e/screens-round-two)
    await expectStatus(h, [['GET', '/api/custom_field'], ['POST', '/api/custom_field', { entity: 'customer', name: 'cf_view', type: 'string', label: { th: 'ดู', en: 'View' } }]], 403);
    // issue 50 §6: the demo's other roles see no books
    await expectStatus(h, BOOKS.map((u) => ['GET', u] as ['GET', string]), 403);
    for (const u of ['sales', 'warehouse', 'cashier', 'branch']) await expectStatus(await signIn(u), [['GET', '/api/journal_entry'], ['GET', '/api/report/trial_balance?date_from=2026-01-01&date_to=2026-12-31']], 403);
    // nor through a document it may read: the invoice yes, its รายการบัญชี no
    const invoice = (await call(t.headers, 'GET', '/api/tax_invoice?limit=1&sort=id')).json().data[0] as Row;
    await expectStatus(h, [['GET', `/api/tax_invoice/${invoice.id}`]], 200);
    await expectStatus(h, [['GET', `/api/tax_invoice/${invoice.id}/journal`]], 403);
    await expectStatus(await signIn('accountant'), [['GET', `/api/tax_invoice/${invoice.id}/journal`]], 200);
  });

  it('accountant: the books, a voucher posted, a month closed; not the sales or stock documents', async () => {
    const h = await signIn('accountant');
    await expectStatus(h, BOOKS.map((u) => ['GET', u] as ['GET', string]), 200);
    const accounts = (await call(h, 'GET', '/api/account?limit=500')).json().data as Row[];
    const byRole = (role: string) => accounts.find((a) => a.role === role)!.id as number;
    const voucher = await call(h, 'POST', '/api/journal_entry', {
      doc_date: '2026-11-20', your_company_id: ids.TPT, memo: 'ค่าเช่าสำนักงาน', items: [{ account_id: byRole('stock_adjustment'), debit: 100 }, { account_id: byRole('cash'), credit: 100 }],
    });
    expect(voucher.statusCode, voucher.body).toBe(201);
    await expectStatus(h, [['POST', `/api/journal_entry/${voucher.json().data.id}/actions/post`]], 200);
    const closed = await t.app.inject({ method: 'PATCH', url: `/api/your_company/${ids.TPT}`, headers: h, payload: { books_closed_until: '2026-10-31' } });
    expect(closed.statusCode, closed.body).toBe(200);
    // the products on a document's lines read by name, and the 50 ทวิ of a payment, are the accountant's too
    await expectStatus(h, [['GET', '/api/product'], ['GET', '/api/withholding_tax']], 200);
    await expectStatus(h, [['GET', '/api/sales_order'], ['GET', '/api/stock/balance'], ['GET', '/api/user_role'], ['POST', '/api/product', { code: 'ACC-P1', name_th: 'สินค้าทดสอบ', product_class: 'class_a', unit: 'ชิ้น', price: 1, vat_type: 'vat7' }]], 403);
  });
});
