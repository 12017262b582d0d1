/**
 * Issue 51 §2 (the server's part of a register for a real counter) and issue 47 §6 (the slip's time):
 * - GET /api/pos_order/on-hand answers what the terminal's inventory holds when an item is scanned, for a caller
 *   who may sell (create on pos_order), for a terminal the caller may read;
 * - a payment carries its reference (a card's approval code, a transfer's reference) and the slip prints it;
 * - the slip's date is Thai style in the Buddhist era and its time is the business clock's, not UTC's;
 * - a full tax invoice slip names the seller's address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { posShop } from '../support/pos-fixtures.ts';
import { sellerAddress, slipDateTime, slipDocument } from '../../server/pos/sale-slip.ts';

describe('the slip\'s date and time', () => {
  it('prints the sale\'s business day in the Buddhist era and the business clock\'s time', () => {
    // 19:44 UTC on 28 November is 02:44 on 29 November in Bangkok: the UTC clock printed 19:44 beside 29/11
    expect(slipDateTime('2026-11-29', '2026-11-28T19:44:00.000Z', 'Asia/Bangkok')).toBe('29/11/2569 02:44');
    expect(slipDateTime('2026-01-05', '2026-01-05T03:07:00.000Z', 'Asia/Bangkok')).toBe('05/01/2569 10:07');
    // another business zone moves the clock with it
    expect(slipDateTime('2026-06-30', '2026-06-30T12:00:00.000Z', 'Europe/London')).toBe('30/06/2569 13:00');
  });

  it('names the seller\'s address on a full tax invoice, not on an abbreviated one', () => {
    const seller = { name_th: 'บริษัท ทดสอบ จำกัด', tax_id: '0105558034121', address_line: '99/1 ถนนพระราม 2', district: 'เมืองสมุทรสาคร', province: 'สมุทรสาคร', postal_code: '74000' };
    expect(sellerAddress(seller)).toBe('99/1 ถนนพระราม 2 เมืองสมุทรสาคร สมุทรสาคร 74000');
    const order = { invoice_type: 'full', doc_no: 'R1', doc_date: '2026-11-29', created_at: '2026-11-28T19:44:00Z', buyer_name: 'ผู้ซื้อ', buyer_tax_id: '0105558034121', items: [], payments: [] };
    expect(JSON.stringify(slipDocument(order, seller, undefined, new Map(), new Map()))).toContain('74000');
    expect(JSON.stringify(slipDocument({ ...order, invoice_type: 'abbreviated' }, seller, undefined, new Map(), new Map()))).not.toContain('74000');
  });
});

describe.each(testDialects())('the register\'s server calls on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let shop: Awaited<ReturnType<typeof posShop>>;
  let card: number;
  let tape: number;
  let film: number;
  let shift: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    shop = await posShop(c);
    card = await c.make('payment_method', { code: 'CARD', name_th: 'บัตรเครดิต', payment_type: 'credit_card', requires_reference: true });
    tape = await c.product({ price: 120 });
    film = await c.product({ price: 45.5 });
    await c.receive(shop.inv, [{ product_id: tape, qty: 7, price: 80 }]);
    shift = (await c.ok(c.call('POST', '/api/pos_shift', c.admin, { pos_id: shop.pos, opening_cash: 0 }), 201)).id as number;
  });
  afterAll(async () => t?.close());

  it('answers the terminal\'s stock of the scanned products, 0 for none held', async () => {
    const res = await c.call('GET', `/api/pos_order/on-hand?pos_id=${shop.pos}&product_id=${tape},${film}`, c.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([{ product_id: tape, qty: 7 }, { product_id: film, qty: 0 }]);
    expect(res.json().meta).toMatchObject({ inventory_id: shop.inv, negative_allowed: false });
  });

  it('refuses a call without a terminal or products (400), an unknown terminal (404), a caller who may not sell (403)', async () => {
    expectError(await c.call('GET', `/api/pos_order/on-hand?product_id=${tape}`, c.admin), 400, 'INVALID_QUERY');
    expectError(await c.call('GET', `/api/pos_order/on-hand?pos_id=${shop.pos}&product_id=x`, c.admin), 400, 'INVALID_QUERY');
    expectError(await c.call('GET', `/api/pos_order/on-hand?pos_id=999999&product_id=${tape}`, c.admin), 404, 'NOT_FOUND');
    const viewer = (await c.staff(`viewer_${dialect}`, { pos_order: { view: true }, pos: { view: true } })).headers;
    expectError(await c.call('GET', `/api/pos_order/on-hand?pos_id=${shop.pos}&product_id=${tape}`, viewer), 403, 'FORBIDDEN');
  });

  it('stores a payment\'s reference and prints it on the slip; a reference over 100 characters is refused', async () => {
    const sell = (payments: unknown[], key: string) => c.call('POST', '/api/pos_order', c.admin, { pos_shift_id: shift, items: [{ product_id: tape, qty: 1 }], payments }, { headers: { ...c.admin, 'idempotency-key': key } });
    const long = await sell([{ payment_method_id: card, amount: 120, reference: 'x'.repeat(101) }], `ref-${dialect}-long-1`);
    expectError(long, 400, 'VALIDATION_FAILED');
    expect(long.json().error.details.fields[0]).toMatchObject({ field: 'payments.0.reference', code: 'max_length' });
    const ok = await sell([{ payment_method_id: card, amount: 120, reference: 'APPR-778812' }], `ref-${dialect}-ok-1`);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.payments[0]).toMatchObject({ payment_method_id: card, amount: 120, reference: 'APPR-778812' });
    const slip = await c.call('GET', `/api/pos_order/${ok.json().data.id}/slip`, c.admin);
    expect(slip.statusCode).toBe(200);
    const { execFileSync } = await import('node:child_process');
    const text = execFileSync('pdftotext', ['-', '-'], { input: slip.rawPayload }).toString();
    expect(text).toContain('APPR-778812');
    // the time printed is the sale's on the business clock (Bangkok in tests), the date in the Buddhist era
    expect(text).toContain(slipDateTime(ok.json().data.doc_date, ok.json().data.created_at));
  });

  it('refuses a payment by a method that requires a reference without one (400 reference_required, in Thai); cash never asks', async () => {
    const sell = (payments: unknown[], key: string, lang: Record<string, string> = {}) => c.call('POST', '/api/pos_order', c.admin, { pos_shift_id: shift, items: [{ product_id: tape, qty: 1 }], payments }, { headers: { ...c.admin, ...lang, 'idempotency-key': key } });
    const before = (await c.call('GET', `/api/pos_order?filter=${encodeURIComponent(JSON.stringify({ pos_shift_id: { _eq: shift } }))}`, c.admin)).json().data.length;
    for (const reference of [undefined, '', '   ']) {
      const res = await sell([{ payment_method_id: card, amount: 120, ...(reference === undefined ? {} : { reference }) }], `ref-${dialect}-none-${String(reference?.length ?? 'u')}`, { 'accept-language': 'th' });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.json().error.details.fields).toEqual([expect.objectContaining({ field: 'payments.0.reference', code: 'reference_required', message: expect.stringContaining('ต้องระบุเลขอ้างอิง') })]);
    }
    // the second of two payments names its own line
    const mixed = await sell([{ payment_method_id: shop.cash, amount: 20 }, { payment_method_id: card, amount: 100 }], `ref-${dialect}-mixed-1`);
    expectError(mixed, 400, 'VALIDATION_FAILED');
    expect(mixed.json().error.details.fields[0]).toMatchObject({ field: 'payments.1.reference', code: 'reference_required' });
    // nothing was stored, and the key is free for the corrected sale
    expect((await c.call('GET', `/api/pos_order?filter=${encodeURIComponent(JSON.stringify({ pos_shift_id: { _eq: shift } }))}`, c.admin)).json().data.length).toBe(before);
    const fixed = await sell([{ payment_method_id: shop.cash, amount: 20 }, { payment_method_id: card, amount: 100, reference: 'APPR-1' }], `ref-${dialect}-mixed-1`);
    expect(fixed.statusCode, fixed.body).toBe(201);
    // a cash method marked requires_reference by mistake still takes cash without one
    const oddCash = await c.make('payment_method', { code: 'CASH2', name_th: 'เงินสด (ลิ้นชัก 2)', payment_type: 'cash', requires_reference: true });
    const cashOnly = await sell([{ payment_method_id: oddCash, amount: 120 }], `ref-${dialect}-cash-1`);
    expect(cashOnly.statusCode, cashOnly.body).toBe(201);
    // undone, so the shift report below counts the card sale of the test above only
    for (const res of [fixed, cashOnly]) expect((await c.call('POST', `/api/pos_order/${res.json().data.id}/actions/refund`, c.admin, {})).statusCode).toBe(200);
  });

  it('reports the shift: X while it is open, Z once closed, with the money by payment method and the cash', async () => {
    const x = await c.call('GET', `/api/pos_shift/${shift}/report`, c.admin);
    expect(x.statusCode, x.body).toBe(200);
    // the card sale of the test above: 120.00 by card, no cash
    expect(x.json().data).toMatchObject({ kind: 'X', sales_count: 1, sales_total: 120, net_sales: 120, payments: [{ payment_method_id: card, payment_type: 'credit_card', amount: 120 }], cash_taken: 0, expected_cash: 0, counted_cash: null });
    const cashSale = await c.call('POST', '/api/pos_order', c.admin, { pos_shift_id: shift, items: [{ product_id: tape, qty: 1 }], payments: [{ payment_method_id: shop.cash, amount: 200 }] }, { headers: { ...c.admin, 'idempotency-key': `rep-${dialect}-cash-1` } });
    expect(cashSale.statusCode, cashSale.body).toBe(201);
    const closed = await c.call('POST', `/api/pos_shift/${shift}/actions/close`, c.admin, { counted_cash: 115 });
    expect(closed.statusCode, closed.body).toBe(200);
    const z = (await c.call('GET', `/api/pos_shift/${shift}/report`, c.admin)).json().data;
    // cash 200 less 80 change = 120 taken; counted 115: 5 short
    expect(z).toMatchObject({ kind: 'Z', sales_count: 2, sales_total: 240, change_given: 80, cash_taken: 120, expected_cash: 120, counted_cash: 115, difference: -5 });
    expect(z.payments).toEqual([{ payment_method_id: shop.cash, payment_type: 'cash', amount: 200 }, { payment_method_id: card, payment_type: 'credit_card', amount: 120 }].sort((a, b) => a.payment_method_id - b.payment_method_id));
    expectError(await c.call('GET', '/api/pos_shift/999999/report', c.admin), 404, 'NOT_FOUND');
  });
});
